#!/usr/bin/env python3
# Writes the specs of this case (not run by the tests; kept to remake them):
#   sched.spec   sched:sched_switch samples with call chains, cpu-clock beside
#   switch.spec  cpu-clock with PERF_RECORD_SWITCH records (--switch-events)
#   wide.spec    the same with SWITCH_CPU_WIDE records (--switch-events -a)
#   bpf.spec     samples of "offcpu-time" (perf record --off-cpu)
#   none.spec    cpu-clock alone: no switches
#   gone.spec    switch records, but no thread that left came back
# The times, threads and the weights they must give are in cmd. The
# sched_switch format is Linux 6.18's (id 372), as in synth-tracepoint.
import struct

HEADER_PAGE = (b"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
               b"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
               b"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
               b"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n")
HEADER_EVENT = (b"# compressed entry header\n\ttype_len    :    5 bits\n"
                b"\ttime_delta  :   27 bits\n\tarray       :   32 bits\n\n"
                b"\tpadding     : type == 29\n\ttime_extend : type == 30\n"
                b"\ttime_stamp : type == 31\n\tdata max type_len  == 28\n")
SWITCH = (b"name: sched_switch\nID: 372\nformat:\n"
          b"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
          b"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
          b"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
          b"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n"
          b"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
          b"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
          b"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
          b"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
          b"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
          b"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
          b"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
          b"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%d ==> "
          b"next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, "
          b"REC->prev_prio, REC->prev_state, REC->next_comm, REC->next_pid, REC->next_prio\n")

MS = 1000000
K = "0xffffffff81"          # kernel text
SCHED = K + "001018," + K + "001823"                     # __schedule, schedule
STACKS = {                  # per thread: its blocking call chain, leaf first
    100: "kernel:" + SCHED + "," + K + "004010,user:0x400310,0x400010",   # futex_wait
    101: "kernel:" + SCHED + "," + K + "002010,user:0x400110,0x400010",   # do_nanosleep
    102: "kernel:" + SCHED + "," + K + "003010,user:0x400210,0x400010",   # pipe_read
}
COMM = {0: "swapper/0", 100: "app", 101: "sleeper", 102: "reader"}


def tracing_data():
    b = b"\x17\x08\x44tracing" + b"0.6\0" + bytes([0, 8]) + struct.pack("<I", 4096)
    b += b"header_page\0" + struct.pack("<Q", len(HEADER_PAGE)) + HEADER_PAGE
    b += b"header_event\0" + struct.pack("<Q", len(HEADER_EVENT)) + HEADER_EVENT
    b += struct.pack("<I", 0) + struct.pack("<I", 1)
    b += b"sched\0" + struct.pack("<I", 1) + struct.pack("<Q", len(SWITCH)) + SWITCH
    b += struct.pack("<I", 0) + struct.pack("<I", 0) + struct.pack("<Q", 0)
    return b


def payload(prev, state, nxt):
    return (struct.pack("<HBBi", 372, 1, 0, prev) + COMM[prev].encode().ljust(16, b"\0") +
            struct.pack("<iiq", prev, 120, state) + COMM[nxt].encode().ljust(16, b"\0") +
            struct.pack("<ii", nxt, 120))


def common(out):
    out.append("feature hostname synth")
    out.append("feature osrelease 6.18.0-synth")
    out.append("feature nrcpus 2 2")


def threads(out, id):
    out.append("mmap pid=-1 tid=0 start=0xffffffff81000000 len=0x1000000 "
               "pgoff=0xffffffff81000000 filename=[kernel.kallsyms]_text misc=kernel "
               "id=%d time=500" % id)
    out.append("comm pid=100 tid=100 comm=app exec=1 id=%d time=1000" % id)
    out.append("comm pid=100 tid=101 comm=sleeper id=%d time=1001" % id)
    out.append("comm pid=100 tid=102 comm=reader id=%d time=1002" % id)


def clock(tid, t, chain, id=13):
    return ("sample id=%d pid=100 tid=%d time=%d cpu=0 period=%d ip=0x400010 callchain=%s"
            % (id, tid, t, MS, chain))


def sched_spec():
    out = ["# Made by make-specs.py: sched_switch samples and cpu-clock; see cmd."]
    common(out)
    out.append("attr name=sched:sched_switch type=2 config=372 sample_period=1 sample_id_all=1 "
               "sample_type=IDENTIFIER,IP,TID,TIME,CPU,PERIOD,RAW,CALLCHAIN ids=11")
    out.append("attr name=cpu-clock type=1 config=0 sample_period=%d sample_id_all=1 "
               "sample_type=IDENTIFIER,IP,TID,TIME,CPU,PERIOD,CALLCHAIN ids=13" % MS)
    out.append("feature raw 1 " + tracing_data().hex())
    threads(out, 13)

    def sw(t, prev, state, nxt):
        out.append("sample id=11 pid=100 tid=%d time=%d cpu=0 period=1 ip=%s001018 "
                   "callchain=%s raw=%s" % (prev, t, K, STACKS[prev], payload(prev, state, nxt).hex()))
    sw(1 * MS, 101, 1, 102)                     # sleeper sleeps; reader runs
    out.append(clock(102, 1500000, "user:0x400020,0x400010"))
    sw(2 * MS, 102, 1, 100)                     # reader blocks; main runs
    sw(4 * MS, 100, 1, 101)                     # main waits; sleeper back: 3 ms off
    out.append(clock(101, 4500000, "user:0x400120,0x400010"))
    sw(5 * MS, 101, 1, 102)                     # sleeper again; reader back: 3 ms off
    out.append(clock(100, 6 * MS, "user:0x400020,0x400010"))  # main seen running: 2 ms off
    out.append("exit pid=100 ppid=1 tid=102 time=6900000 id=13")  # reader exits: it runs
    sw(7 * MS, 102, 0x40, 0)                    # and leaves for good
    out.append(clock(100, 8 * MS, "user:0x400020,0x400010"))
    return out


def switch_spec(wide):
    out = ["# Made by make-specs.py: cpu-clock with %s records; see cmd." %
           ("SWITCH_CPU_WIDE" if wide else "SWITCH")]
    common(out)
    out.append("attr name=cpu-clock type=1 config=0 sample_period=%d sample_id_all=1 "
               "context_switch=1 sample_type=IDENTIFIER,IP,TID,TIME,CPU,PERIOD,CALLCHAIN ids=13" % MS)
    threads(out, 13)

    def sw(t, tid, out_, other, preempt=False):
        verb = "switch_cpu_wide" if wide else "switch"
        extra = " next_prev_pid=100 next_prev_tid=%d" % other if wide else ""
        out.append("%s id=13 pid=100 tid=%d time=%d cpu=0%s%s%s" %
                   (verb, tid, t, " out=1" if out_ else "", " preempt=1" if preempt else "", extra))
    out.append(clock(101, 500000, STACKS[101]))
    sw(1 * MS, 101, True, 102)                  # sleeper off: stack of its sample
    sw(1 * MS, 102, False, 101)
    sw(2 * MS, 102, True, 100)                  # reader off before any sample of it
    sw(2 * MS, 100, False, 102)
    out.append(clock(100, 3 * MS, STACKS[100]))
    sw(3500000, 100, True, 101)                 # main off
    sw(3500000, 101, False, 100)                # (sleeper was back at 3.5 ms: 2.5 ms)
    sw(4 * MS, 101, True, 102)                  # sleeper off again
    sw(4 * MS, 102, False, 101)                 # reader back: 2 ms
    out.append(clock(100, 6 * MS, "user:0x400020,0x400010"))  # main seen: 2.5 ms
    sw(7 * MS, 102, True, 101, preempt=True)    # reader preempted
    sw(7 * MS, 101, False, 102)                 # sleeper back: 3 ms
    sw(7200000, 102, False, 101)                # reader back: 0.2 ms
    sw(7500000, 101, True, 102)                 # sleeper off again
    out.append("exit pid=100 ppid=1 tid=101 time=7700000 id=13")  # exits: it ran, 0.2
    out.append("exit pid=100 ppid=1 tid=100 time=7900000 id=13")
    sw(8 * MS, 100, True, 0)                    # main leaves for good
    return out


def bpf_spec():
    out = ["# Made by make-specs.py: perf record --off-cpu's offcpu-time samples; see cmd."]
    common(out)
    out.append("attr name=cpu-clock type=1 config=0 sample_period=%d sample_id_all=1 "
               "sample_type=IDENTIFIER,IP,TID,TIME,CPU,PERIOD,CALLCHAIN ids=13" % MS)
    out.append("attr name=offcpu-time type=1 config=10 sample_period=1 sample_id_all=1 "
               "sample_type=IDENTIFIER,IP,TID,TIME,CPU,PERIOD,CALLCHAIN ids=14")
    threads(out, 13)
    out.append(clock(100, 1 * MS, "user:0x400020,0x400010"))
    out.append("sample id=14 pid=100 tid=101 time=%d cpu=0 period=3000000 ip=%s001018 "
               "callchain=%s" % (2 * MS, K, STACKS[101]))
    out.append("sample id=14 pid=100 tid=102 time=%d cpu=0 period=1234567 ip=%s001018 "
               "callchain=%s" % (3 * MS, K, STACKS[102]))
    return out


def none_spec():
    out = ["# Made by make-specs.py: cpu-clock alone; see cmd."]
    common(out)
    out.append("attr name=cpu-clock type=1 config=0 sample_period=%d sample_id_all=1 "
               "sample_type=IDENTIFIER,IP,TID,TIME,CPU,PERIOD,CALLCHAIN ids=13" % MS)
    threads(out, 13)
    out.append(clock(100, 1 * MS, "user:0x400020,0x400010"))
    return out


def gone_spec():
    out = ["# Made by make-specs.py: a thread leaves and never comes back; see cmd."]
    common(out)
    out.append("attr name=cpu-clock type=1 config=0 sample_period=%d sample_id_all=1 "
               "context_switch=1 sample_type=IDENTIFIER,IP,TID,TIME,CPU,PERIOD,CALLCHAIN ids=13" % MS)
    threads(out, 13)
    out.append(clock(101, 500000, STACKS[101]))
    out.append("switch id=13 pid=100 tid=101 time=%d cpu=0 out=1" % MS)
    return out


for name, lines in (("sched.spec", sched_spec()), ("switch.spec", switch_spec(False)),
                    ("wide.spec", switch_spec(True)), ("bpf.spec", bpf_spec()),
                    ("none.spec", none_spec()), ("gone.spec", gone_spec())):
    with open(name, "w") as f:
        f.write("\n".join(lines) + "\n")
