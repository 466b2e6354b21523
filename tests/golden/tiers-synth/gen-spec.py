#!/usr/bin/env python3
# Writes tiers.spec (the tiers-synth case's recording) and jit-100.jdspec:
# run from this directory after changing the plan below. Each process
# samples at fixed steps from t0 = 1 s; the plan gives, per 100 ms
# interval, the leaves (and their callers) sampled in it, in order.
N0 = 0x555555554000
NAT = {  # nm usr/bin/rtdemo, + 0x10 into each function (see addr())
    'main': 0x474, 'do_work': 0x575, 'Builtins_ArrayPrototypePush': 0x676,
    'v8heap': 0x777, 'v8compiler': 0x878, 'pyeval': 0x979, 'pygc': 0xa7a,
    'g1': 0xb7b, 'c2': 0xc7c, 'lj_BC_ADDVV': 0xd7d, 'lj_vm_call': 0xe7e,
    'lj_gc_step': 0xf7f, 'lj_trace_ins': 0x1080, 'execute_ex': 0x1181,
    'ZEND_ADD_SPEC_CV_CV_HANDLER': 0x1282,
}
JIT = 0x7f1000000000     # each process's //anon JIT region
# JIT code names, in order: jit-100.jdspec (node) or perf-PID.map
CODE = {
    100: ['JS:~f /app/w.js:1:1', 'JS:^f /app/w.js:1:1', 'JS:+f /app/w.js:1:1',
          'JS:*f /app/w.js:1:1'],
    200: ['[App] App.Program::Work()[QuickJitted]', '[App] App.Program::Work()[OptimizedTier1]',
          '[App] App.Program::Work()[OptimizedTier1OSR]', '[App] App.Program::Main()',
          'stub<1> AllocateTemporaryEntryPoints<PRECODE_STUB>'],
    300: ['Interpreter', 'Lcom/foo/Bar;run()V', 'StubRoutines (1)'],
    400: ['py::fib:/app/x.py', 'py::<module>:/app/x.py'],
    500: ['$lists:seq/2', '$global::call_bif_shim', '$erlang:apply/2'],
    600: ['TRACE_1::/app/x.lua:3'],
    # php8.2 opcache.jit=tracing, opcache.jit_debug=0x10: traces, function JIT, stubs
    800: ['TRACE-1$run$3', 'JIT$$trace_exit', 'JIT$Foo::bar'],
    # node 24 (V8 13): WebAssembly in Liftoff and TurboFan, V8 13's regexp names
    900: ['$add-liftoff', '$add-turbofan', "RegExp.< src: 'a+b' flags: 'g'",
          "RegExp.> src: '(\\d+)-x' flags: ''", 'JS:*run /app/w.mjs:1:1'],
}
KADDR = {'write': 0xffffffff81000310, 'syscall': 0xffffffff81000210, 'entry': 0xffffffff81000110}

def addr(pid, leaf):
    if leaf in NAT:
        return N0 + NAT[leaf] + 0x10
    if leaf == 'nomap':
        return 0x1234
    return JIT + 0x1000 + 0x100 * CODE[pid].index(leaf) + 0x10

def chain(pid, frames):
    """frames: leaf first; 'k' as the leaf: write(2) from main"""
    if frames[0] == 'k':
        return 'kernel:%#x,%#x,%#x,user:%#x' % (KADDR['write'], KADDR['syscall'],
                                                KADDR['entry'], N0 + NAT['main'] + 0x10)
    return 'user:' + ','.join('%#x' % addr(pid, f) for f in frames + ['main'])

V = CODE[100]
J = CODE[300]
P = CODE[400]
# (pid, tid, interval) -> list of (count, frames, period)
plan = {}
def put(pid, tid, i, n, frames, period=10000):
    plan.setdefault((pid, tid, i), []).append((n, frames, period))

# node: Ignition, then Sparkplug, Maglev, TurboFan; a gap in interval 6;
# interval 8 holds 20 samples, one interpreted (exactly 5%)
put(100, 100, 0, 10, [V[0]], 30000)
put(100, 100, 1, 6, [V[0]]); put(100, 100, 1, 4, [V[1], V[0]])
put(100, 100, 2, 3, [V[0]]); put(100, 100, 2, 4, [V[1]]); put(100, 100, 2, 3, [V[3], V[0]])
put(100, 100, 3, 1, [V[0]]); put(100, 100, 3, 2, [V[1]]); put(100, 100, 3, 3, [V[2]])
put(100, 100, 3, 4, [V[3]])
put(100, 100, 4, 8, [V[3]]); put(100, 100, 4, 1, [V[2]])
put(100, 100, 4, 1, ['Builtins_ArrayPrototypePush', V[3]])
put(100, 100, 5, 7, [V[3]]); put(100, 100, 5, 2, ['v8heap']); put(100, 100, 5, 1, ['v8compiler'])
put(100, 100, 7, 9, [V[3]]); put(100, 100, 7, 1, ['k'])
put(100, 100, 8, 19, [V[3]]); put(100, 100, 8, 1, [V[0]])
put(100, 100, 9, 10, [V[3]])
# dotnet: Tier0 (QuickJitted), then Tier1, an OSR method, a stub, a method without its tier
D = CODE[200]
for i in range(10):
    if i < 3:
        put(200, 200, i, 5, [D[0]])
    elif i == 3:
        put(200, 200, i, 2, [D[0]]); put(200, 200, i, 3, [D[1]])
    else:
        put(200, 200, i, 3, [D[1]])
        put(200, 200, i, 1, [D[2] if i == 5 else D[4] if i == 6 else D[1]])
        put(200, 200, i, 1, [D[3]])
# java: the interpreter, then compiled code (perf's JVMTI names), compiled
# code called from the interpreted main() (not interpreted innermost); the
# last interval partial (2 samples, the median 5) and half interpreted: the
# JVM's exit, which does not erase the warm-up; a C2 compiler thread in
# code of no runtime (named by its thread), a GC thread
for i in range(9):
    interp = max(0, 4 - i)
    if interp:
        put(300, 300, i, interp, [J[0]])
    put(300, 300, i, 4 - interp, [J[1], J[0]])
    put(300, 300, i, 1, [J[2]] if i == 6 else [J[1]])
put(300, 300, 9, 1, [J[1], J[0]]); put(300, 300, 9, 1, [J[0]])
for i in (2, 3, 4):
    put(300, 301, i, 2, ['do_work', 'c2'])
for i in (5, 7):
    put(300, 302, i, 2, ['g1'])
# python3 -X perf: py:: trampolines, the eval loop, the GC: never warm
for i in range(10):
    put(400, 400, i, 2, [P[0], P[1]]); put(400, 400, i, 1, ['pyeval', P[0], P[1]])
    if i % 3 == 0:
        put(400, 400, i, 1, ['pygc', P[1]])
# beam.smp: BeamAsm code and its shims
B = CODE[500]
for i in range(10):
    put(500, 500, i, 2, [B[0], B[2]]); put(500, 500, i, 1, [B[1], B[0]])
# luajit: the interpreter, the trace recorder, then traces; the GC; one address in no mapping
for i in range(10):
    if i < 4:
        put(600, 600, i, 3 - i, ['lj_BC_ADDVV', 'lj_vm_call']); put(600, 600, i, 1, ['lj_vm_call'])
    if 1 <= i <= 3:
        put(600, 600, i, 1, ['lj_trace_ins', 'lj_vm_call'])
    if i >= 2:
        put(600, 600, i, 3, [CODE[600][0], 'lj_vm_call'])
    if i == 6:
        put(600, 600, i, 1, ['lj_gc_step'])
    if i == 9:
        put(600, 600, i, 1, ['nomap'])
# php8.2: the Zend VM (execute_ex, a handler), then traces; a stub; the
# function JIT's code; native code called by the VM (interpreted innermost)
PH = CODE[800]
for i in range(10):
    vm = max(0, 3 - i)
    if vm:
        put(800, 800, i, vm, ['execute_ex']); put(800, 800, i, 1, ['ZEND_ADD_SPEC_CV_CV_HANDLER', 'execute_ex'])
        put(800, 800, i, 1, ['do_work', 'execute_ex'])
    put(800, 800, i, 1 + min(i, 3), [PH[0], 'execute_ex'])
    put(800, 800, i, 1, [PH[1], PH[0]] if i % 2 else [PH[2], 'execute_ex'])
# node 24: wasm in Liftoff then TurboFan, regexp code, under optimized JS
N9 = CODE[900]
for i in range(10):
    put(900, 900, i, 1, [N9[0] if i < 4 else N9[1], N9[4]])
    put(900, 900, i, 1, [N9[2 + i % 2], N9[4]])
    put(900, 900, i, 1, [N9[4]])
# a process whose name CSV must quote
put(700, 700, 4, 1, ['k'])

COMMS = {100: 'node', 200: 'dotnet', 300: 'java', 400: 'python3', 500: 'beam.smp',
         600: 'luajit', 700: 'x,y', 800: 'php8.2', 900: 'node24'}
THREADS = {301: 'C2 CompilerThre', 302: 'GC Thread#0'}
T0 = 1000000000
IV = 100000000

out = []
w = out.append
w('# Generated by gen-spec.py (see there and cmd): one process per runtime, sampled')
w('# over 1 s from t0 = 1 s; per 100 ms interval the leaves gen-spec.py plans.')
w('feature hostname tiershost')
w('feature osrelease 6.1.0-test')
w('feature arch x86_64')
w('feature nrcpus 2 2')
w('')
w('attr name=cpu-clock type=1 config=0 sample_type=IP,TID,TIME,CALLCHAIN,PERIOD,CPU '
  'sample_period=10000 sample_id_all=1 disabled=1 inherit=1 mmap=1 comm=1 task=1 mmap2=1 '
  'comm_exec=1 use_clockid=1 clockid=1')
w('')
w('mmap pid=-1 tid=0 start=0xffffffff81000000 len=0x1000000 pgoff=0xffffffff81000000 '
  'filename=[kernel.kallsyms]_text misc=kernel time=0 cpu=0')
t = T0 - 1000000
for pid, comm in COMMS.items():
    w('comm pid=%d tid=%d comm="%s" exec=1 time=%d cpu=0' % (pid, pid, comm, t))
    w('mmap2 pid=%d tid=%d start=%#x len=0x2000 pgoff=0 maj=8 min=1 ino=401 prot=5 flags=2 '
      'filename=/usr/bin/rtdemo time=%d cpu=0' % (pid, pid, N0, t + 100))
    if pid in CODE:
        w('mmap2 pid=%d tid=%d start=%#x len=0x10000 pgoff=0 prot=7 flags=0x22 filename=//anon '
          'time=%d cpu=0' % (pid, pid, JIT, t + 200))
    t += 1000
w('mmap2 pid=100 tid=100 start=0x7ffff7ff0000 len=0x1000 pgoff=0 maj=8 min=1 ino=402 prot=5 '
  'flags=2 filename=/work/run/jit-100.dump time=%d cpu=0' % t)
for tid, comm in THREADS.items():
    w('fork pid=300 ppid=300 tid=%d ptid=300 time=%d cpu=0' % (tid, t + 10))
    w('comm pid=300 tid=%d comm="%s" time=%d cpu=0' % (tid, comm, t + 20))
    t += 100
w('finished_round')

samples = []
for (pid, tid, i), items in plan.items():
    leaves = [(f, p) for n, f, p in items for _ in range(n)]
    step = IV // len(leaves)
    for k, (frames, period) in enumerate(leaves):
        samples.append((T0 + i * IV + k * step + pid // 100, pid, tid, frames, period))
samples.sort(key=lambda s: s[0])
rnd = 0
for time, pid, tid, frames, period in samples:
    if (time - T0) // IV != rnd:
        rnd = (time - T0) // IV
        w('finished_round')
    c = chain(pid, frames)
    ip = c.split(':')[1].split(',')[0]
    w('sample pid=%d tid=%d time=%d cpu=%d period=%d ip=%s callchain=%s'
      % (pid, tid, time, pid % 2, period, ip, c))
w('finished_round')
open('tiers.spec', 'w').write('\n'.join(out) + '\n')

jd = ['# node (pid 100): the same function f in each of V8\'s tiers (gen-spec.py)',
      'header pid=100 timestamp=%d' % (T0 - 500000)]
for k, name in enumerate(CODE[100]):
    jd.append('load time=%d addr=%#x size=0x100 name="%s"' % (T0 - 400000 + k * 100,
                                                          JIT + 0x1000 + 0x100 * k, name))
open('jit-100.jdspec', 'w').write('\n'.join(jd) + '\n')
import os
os.makedirs('maps', exist_ok=True)
for pid, names in CODE.items():
    if pid == 100:
        continue
    with open('maps/perf-%d.map' % pid, 'w') as f:
        for k, name in enumerate(names):
            f.write('%x 100 %s\n' % (JIT + 0x1000 + 0x100 * k, name))
