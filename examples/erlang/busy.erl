%% A busy Erlang program for jitsym's live test (tests/live/t-erlang.sh):
%% two workers that, until the given number of seconds has passed, spawn
%% a process that computes a naive Fibonacci number and sorts a list, and
%% wait for its answer. Every spawned process ends through the BEAM's
%% erts_beamasm:normal_exit/0, whose address the BEAM pushes as the bottom
%% continuation pointer of each process's stack, without a call.
%%
%%   erlc busy.erl && perf record -k 1 -g erl +JPperf true -noshell -run busy main 3
-module(busy).
-export([main/1]).

main([Secs]) ->
    Until = erlang:monotonic_time(millisecond) + list_to_integer(Secs) * 1000,
    Parent = self(),
    Pids = [spawn_link(fun() -> worker(Until, Parent, N) end) || N <- lists:seq(1, 2)],
    [receive {done, P} -> ok end || P <- Pids],
    halt().

worker(Until, Parent, N) ->
    case erlang:monotonic_time(millisecond) < Until of
        true ->
            Self = self(),
            spawn(fun() -> Self ! {result, work(N)} end),
            receive {result, _} -> ok end,
            worker(Until, Parent, N);
        false ->
            Parent ! {done, self()}
    end.

work(N) ->
    _ = fib(18 + N),
    L = [erlang:phash2({I, N}) || I <- lists:seq(1, 2000)],
    length(lists:sort(L)).

fib(0) -> 0;
fib(1) -> 1;
fib(N) -> fib(N - 1) + fib(N - 2).
