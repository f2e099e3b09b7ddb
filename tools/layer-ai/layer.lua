-- An AI that lays a card whenever it may (issue 24's finding 2): two of
-- them crowd the table until it has millions of legal moves. For
-- `make bench` only: `diloti --ai-dir tools/layer-ai match layer layer`.
return {
  name = "layer",
  description = "lays a card whenever it may, to crowd the table",
  choose = function(_, moves)
    for _, m in ipairs(moves) do
      if m:match(" lay$") then return m end
    end
    return moves[1]
  end,
}
