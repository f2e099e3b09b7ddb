-- Lesson: house rules that change declarations.
return {
  id = "13-variants-declaring",
  title = "House rules for declaring",
  rules = { "V-liberal-group", "C3", "V-liberal-raise", "C4", "V-soy" },
  intro = [[These house rules loosen or tighten what a declaration may be made of.]],
  steps = {
    {
      text = [[Liberal group: inside a part of a group a plain declaration may stand
as one card of its value. Your 2, the ace and seat 1's plain 5 make
8, and the loose 8 is a second part. Without this house rule that
move is refused.]],
      spec = "diloti+liberal-group",
      position = "hands=2h 8d / 9c 5s; table=Ac 8c P5@1(2d+3s)",
      ask = "Make a group of 8s.",
      accept = { "2h + Ac 8c P5@1 = G8" },
      hint = "2 + A + 5 = 8, and the 8c.",
      wrong = "V-liberal-group: count the plain 5 as a 5: with your 2 and the ace it makes 8, beside the 8c.",
    },
    {
      text = [[Under liberal group the plain declaration may be anyone's: your own
too, which then counts as including it in the group.]],
      ask = "Under liberal group, may your own plain 5 stand as a 5 inside a part of your new group?",
      choices = { "yes, and your declaration is then part of the group", "no, only an opponent's" },
      answer = 1,
      wrong = "C3: anyone's plain declaration may, your own included.",
    },
    {
      text = [[Liberal raise: a raise may take loose cards too. Your 2 with the loose
ace raises seat 1's plain 6 to 9.]],
      spec = "diloti+liberal-raise",
      position = "hands=2c 9d / 6s 4h; table=Ah P6@1(2d+4c)",
      ask = "Raise seat 1's declaration to 9.",
      accept = { "2c + Ah P6@1 = 9" },
      hint = "6 + 2 + A.",
      wrong = "C4: the raise takes their plain 6, your 2 and the loose ace: 9.",
    },
    {
      text = [[Soy: a group made of exactly two single equal cards (7 and 7) is a
soy. Nothing may be added to it; only a card of its value takes it.]],
      spec = "diloti+soy",
      position = "hands=7h 4c / 9c 7s; table=3d G7@1(7c,7d)",
      ask = "Deal with seat 1's soy.",
      accept = { "7h x G7@1" },
      hint = "Adding 4+3 to it is refused; capture it.",
      wrong = "V-soy: nothing may be added to a soy; your 7 captures it.",
    },
  },
}
