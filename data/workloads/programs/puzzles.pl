% SWI-Prolog (workload "swipl" of data/workloads): backtracking search, unification, list
% processing, DCG parsing, the dynamic database and tabling; output goes to standard output.
:- initialization(main, main).

% ---- N-queens: every solution, by permutation search with early pruning ----
queens(N, Qs) :-
    numlist(1, N, Ns),
    place(Ns, [], Qs).
place([], Qs, Qs).
place(Unplaced, Safe, Qs) :-
    select(Q, Unplaced, Rest),
    no_attack(Q, Safe, 1),
    place(Rest, [Q|Safe], Qs).
no_attack(_, [], _).
no_attack(Q, [Q1|Qs], D) :-
    Q =\= Q1 + D,
    Q =\= Q1 - D,
    D1 is D + 1,
    no_attack(Q, Qs, D1).

% ---- naive reverse (the classic LIPS loop) ----
app([], L, L).
app([H|T], L, [H|R]) :- app(T, L, R).
nrev([], []).
nrev([H|T], R) :- nrev(T, RT), app(RT, [H], R).
nrev_loop(0, _) :- !.
nrev_loop(K, L) :- nrev(L, _), K1 is K - 1, nrev_loop(K1, L).

% ---- a house puzzle: five houses, five attributes, fourteen clues ----
right_of(X, Y, [Y, X|_]).
right_of(X, Y, [_|T]) :- right_of(X, Y, T).
next_to(X, Y, L) :- right_of(X, Y, L) ; right_of(Y, X, L).
houses(Hs, Fish) :-
    length(Hs, 5),
    member(h(red, english, _, _, _), Hs),
    member(h(_, swede, dog, _, _), Hs),
    member(h(_, dane, _, tea, _), Hs),
    right_of(h(white, _, _, _, _), h(green, _, _, _, _), Hs),
    member(h(green, _, _, coffee, _), Hs),
    member(h(_, _, birds, _, pallmall), Hs),
    member(h(yellow, _, _, _, dunhill), Hs),
    Hs = [_, _, h(_, _, _, milk, _), _, _],
    Hs = [h(_, norwegian, _, _, _)|_],
    next_to(h(_, _, _, _, blend), h(_, _, cats, _, _), Hs),
    next_to(h(_, _, horse, _, _), h(_, _, _, _, dunhill), Hs),
    member(h(_, _, _, beer, bluemaster), Hs),
    member(h(_, german, _, _, prince), Hs),
    next_to(h(_, norwegian, _, _, _), h(blue, _, _, _, _), Hs),
    next_to(h(_, _, _, water, _), h(_, _, _, _, blend), Hs),
    member(h(_, Fish, fish, _, _), Hs).

% ---- symbolic differentiation and simplification ----
d(X, X, 1) :- !.
d(C, _, 0) :- atomic(C), !.
d(U + V, X, DU + DV) :- d(U, X, DU), d(V, X, DV).
d(U - V, X, DU - DV) :- d(U, X, DU), d(V, X, DV).
d(U * V, X, DU * V + U * DV) :- d(U, X, DU), d(V, X, DV).
d(U / V, X, (DU * V - U * DV) / (V * V)) :- d(U, X, DU), d(V, X, DV).
d(U ^ N, X, N * U ^ N1 * DU) :- integer(N), N1 is N - 1, d(U, X, DU).
d(exp(U), X, exp(U) * DU) :- d(U, X, DU).
d(log(U), X, DU / U) :- d(U, X, DU).
d(sin(U), X, cos(U) * DU) :- d(U, X, DU).
d(cos(U), X, -(sin(U)) * DU) :- d(U, X, DU).
simp(E, S) :- compound(E), E =.. [F|As], maplist(simp, As, Ss), E1 =.. [F|Ss], s1(E1, S), !.
simp(E, E).
s1(0 + X, X).
s1(X + 0, X).
s1(X - 0, X).
s1(0 * _, 0).
s1(_ * 0, 0).
s1(1 * X, X).
s1(X * 1, X).
s1(X / 1, X).
s1(A + B, C) :- number(A), number(B), C is A + B.
s1(A * B, C) :- number(A), number(B), C is A * B.
s1(X, X).
nest(0, x) :- !.
nest(K, E) :- K1 is K - 1, nest(K1, E1),
    ( K mod 3 =:= 0 -> E = sin(E1) * x + E1 ^ 2
    ; K mod 3 =:= 1 -> E = exp(E1) / (x + 1)
    ; E = log(E1 * x) - cos(E1) ).
term_size(T, 1) :- atomic(T), !.
term_size(T, S) :- T =.. [_|As], foldl([A, S0, S1]>>(term_size(A, SA), S1 is S0 + SA), As, 1, S).

% ---- a DCG: tokenise and parse arithmetic expressions, then evaluate them ----
expr(E) --> term(T), expr_rest(T, E).
expr_rest(Acc, E) --> "+", !, term(T), expr_rest(Acc + T, E).
expr_rest(Acc, E) --> "-", !, term(T), expr_rest(Acc - T, E).
expr_rest(E, E) --> [].
term(T) --> factor(F), term_rest(F, T).
term_rest(Acc, T) --> "*", !, factor(F), term_rest(Acc * F, T).
term_rest(T, T) --> [].
factor(E) --> "(", !, expr(E), ")".
factor(N) --> digits(Ds), { Ds \== [], number_codes(N, Ds) }.
digits([D|Ds]) --> [D], { code_type(D, digit) }, !, digits(Ds).
digits([]) --> [].
% a pseudo-random expression of depth K from a linear congruential sequence
lcg(X0, X) :- X is (X0 * 1103515245 + 12345) mod 2147483648.
gen_expr(0, S0, S, Cs) :- !, lcg(S0, S), N is S mod 1000, number_codes(N, Cs).
gen_expr(K, S0, S, Cs) :-
    K1 is K - 1, lcg(S0, S1), Op is S1 mod 3, nth0(Op, [0'+, 0'-, 0'*], C),
    gen_expr(K1, S1, S2, L), gen_expr(K1, S2, S, R),
    append([[0'(], L, [C], R, [0')]], Cs).
parse_loop(0, S, S, Acc, Acc) :- !.
parse_loop(K, S0, S, Acc0, Acc) :-
    gen_expr(6, S0, S1, Cs), phrase(expr(E), Cs), V is E mod 1000003,
    Acc1 is (Acc0 + V) mod 1000003, K1 is K - 1, parse_loop(K1, S1, S, Acc1, Acc).

% ---- the dynamic database: a graph asserted as facts, reachability by tabling ----
:- dynamic edge/2.
:- table reach/2.
reach(X, Y) :- edge(X, Y).
reach(X, Y) :- reach(X, Z), edge(Z, Y).
make_graph(N, S0) :-
    retractall(edge(_, _)),
    forall(between(1, N, I),
           ( lcg(S0 + I, A), lcg(A, B), J is 1 + A mod N, K is 1 + B mod N,
             assertz(edge(I, J)), assertz(edge(I, K)) )).

% ---- sorting terms ----
sort_loop(0, _) :- !.
sort_loop(K, S0) :-
    numlist(1, 2000, Is),
    foldl([_, (S1, L0), (S2, [k(V, W)|L0])]>>(lcg(S1, S2), V is S2 mod 997, W is S2 mod 89), Is, (S0, []), (S, L)),
    msort(L, _), sort(0, @>=, L, _), predsort([O, k(A, _), k(B, _)]>>compare(O, A, B), L, _),
    K1 is K - 1, sort_loop(K1, S).

main :-
    forall(between(6, 10, N), ( aggregate_all(count, queens(N, _), C), format("queens ~w: ~w~n", [N, C]) )),
    numlist(1, 400, L), nrev_loop(20, L), writeln(nrev_done),
    forall(between(1, 20, _), houses(_, _)), houses(_, Fish), format("fish: ~w~n", [Fish]),
    forall(between(1, 10, K), ( nest(K, E), d(E, x, D), simp(D, S), term_size(S, Size),
                                format("d/dx nest ~w: ~w nodes~n", [K, Size]) )),
    parse_loop(250, 42, _, 0, Sum), format("parsed sum: ~w~n", [Sum]),
    make_graph(1500, 7), aggregate_all(count, reach(1, _), R), format("reachable: ~w~n", [R]),
    abolish_all_tables, make_graph(3000, 11), aggregate_all(count, reach(5, _), R2),
    format("reachable: ~w~n", [R2]),
    sort_loop(2, 99), writeln(sorted).
