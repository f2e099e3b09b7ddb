-- Lesson: declaring a group of equal parts.
return {
  id = "05-group-declarations",
  title = "Group declarations",
  rules = { "D17", "C8" },
  examples = { 5, 6, 7, 8 },
  intro = [[A group declaration gathers several parts of the same value, say
several 6s, into one pile. Whoever takes it later needs only one 6, so
a group is worth protecting, and worth stealing.]],
  steps = {
    {
      text = [[You hold two 5s and a 5 lies on the table. Play one 5 next to it and
declare a group of 5s: the other 5 in your hand will collect it.]],
      position = "hands=5h 5d / 9c; table=5s",
      ask = "Declare a group of 5s.",
      notation = {
        move = "5h + 5s = G5", says = "G before the value means a group of 5s; without it, the value is a plain total",
        also = { "5h on 5s" },
      },
      accept = { "5h + 5s = G5", "5d + 5s = G5" },
      hint = "Type '5h + 5s = G5': the G says group.",
      wrong_moves = {
        ["5h x 5s"] = "D17: taking the 5 is allowed, but this step asks you to build a group and take more later.",
      },
      wrong = "D17: play a 5 beside the 5s as a group of 5s; you keep the other 5.",
    },
    {
      text = [[A group may hold as many parts as you find: your 6, the loose 6, and
4+2 together are three parts worth 6.]],
      position = "hands=6h 6c / 9c; table=6s 4d 2h",
      ask = "Declare the biggest group of 6s you can.",
      accept = { "6h + 2h 4d 6s = G6", "6c + 2h 4d 6s = G6" },
      hint = "Three parts: your card, the 6s, and 4d+2h.",
      wrong = "D17: the 4 and the 2 make one more 6: put all three parts in the group.",
    },
    {
      text = [[Your card need not match the group's value by itself: it may join
loose cards to make one part. Your 6 with the 2 is 8, and the loose 8
is a second part: a group of 8s, backed by your 8.]],
      position = "hands=6h 8d / 9c 2d; table=8s 2h",
      ask = "Declare a group of 8s.",
      accept = { "6h + 2h 8s = G8" },
      hint = "6 + 2, and the 8s.",
      wrong_moves = {
        ["6h + 2h = 8"] = "D17: a plain 8 leaves the loose 8 for anyone; put it in a group of 8s with your 6+2.",
      },
      wrong = "D17: your 6h and the 2h make 8; with the loose 8s that is a group of two 8s.",
    },
    {
      text = [[Your card may also raise an opponent's plain declaration and, in the
same move, group it with other parts. Seat 1's plain 8 plus your ace
is 9, and a loose 9 lies beside it.]],
      position = "hands=Ah 9d 2c / 8h 3c; table=9s P8@1(5c+3s)",
      ask = "Make a group of 9s.",
      notation = {
        move = "Ah + 9s P8@1 = G9", says = "name every part: the loose 9s, and seat 1's plain 8 that your ace raises",
        also = { "Ah + 9s P8 = G9", "Ah + 9s 3s 5c = G9" },
      },
      accept = { "Ah + 9s P8@1 = G9" },
      hint = "The ace raises the 8 to 9; the 9s is the second part.",
      wrong_moves = {
        ["Ah + P8@1 = 9"] = "D17: a raise to 9 leaves the loose 9 behind; the ace can raise and group it in one move.",
      },
      wrong = "D17: raise seat 1's plain 8 with your ace and group it with the loose 9.",
    },
    {
      text = [[Every group has at least two parts. Your card stands alone as a part
only when its value is the group's; otherwise it joins something on
the table.]],
      ask = "You play a 3 into a group of 8s. What must the 3 join?",
      choices = { "nothing: it is a part on its own", "loose cards or a plain declaration, to make a part worth 8" },
      answer = 2,
      wrong = "C8: a 3 is not worth 8 on its own, so it must be joined into a part worth 8.",
    },
  },
}
