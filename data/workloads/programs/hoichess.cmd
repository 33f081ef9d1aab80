hash size 16M
pawnhash size 2M
evalcache size 2M
book off
easy
nopost
st 100000
sd 6
force
setboard rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1
go
force
setboard r1bqk2r/1pppbppp/p1n2n2/4p3/B3P3/5N2/PPPP1PPP/RNBQ1RK1 w kq - 4 6
go
force
setboard r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1
go
force
setboard 8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1
go
force
setboard r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1
go
force
setboard rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8
go
force
setboard r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10
go
force
setboard rnbqkb1r/1p2pppp/p2p1n2/8/3NP3/2N5/PPP2PPP/R1BQKB1R w KQkq - 0 6
go
force
setboard 1K1k4/1P6/8/8/8/8/r7/2R5 w - - 0 1
go
force
setboard 8/k7/3p4/p2P1p2/P2P1P2/8/8/K7 w - - 0 1
go
quit
