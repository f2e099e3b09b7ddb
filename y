diloti-record 1
rules: diloti
players: 2
seed: 7
date: 2026-11-23
engine: diloti 0.1
seat 0: human
seat 1: ai cautious
practice: on
moves
# round 1
1 s0: 3h + 4d = 7
2 s1: 7h x 7d P7@0
final: dealer=1; turn=0; round=1; deal=1; ply=2; hands=4c 7c 8c 10c Qc / Ac 6h 8d 9c 10s; table=Kh Ks; piles=- / 3h 4d 7d 7h; xeri=0 0; score=0 0; won=0 0; last=1; pack=Js 2s Qs 5s Jc 7s Qh 3s 9d 4s Ad As 10d 3c 8s 6c 9h Qd 2d 5c 3d 6d 5d 9s 10h 8h 6s 2h 5h 2c Ah Jd Kc Kd Jh 4h
end 2
