// The pages' one element maker: el("p", {class: "x", text: "…", dataset:
// {seat: "0"}}, kids…). An attribute false, null or undefined is left out;
// true is written empty. Text is always text, never HTML.
export function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") e.textContent = v;
    else if (k === "dataset") Object.assign(e.dataset, v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const k of kids) if (k != null) e.append(k);
  return e;
}
