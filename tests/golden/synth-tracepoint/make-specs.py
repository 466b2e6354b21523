#!/usr/bin/env python3
# Writes the specs of this case (not run by the tests; kept to remake them):
#   tp.spec       file mode, little-endian tracing data and payloads
#   tp-be.spec    the same as a big-endian machine writes it (mkperf --swap
#                 swaps the records; the tracing data and raw payloads are
#                 bytes, so they are written big-endian here)
#   tp-pipe.spec  for mkperf --pipe: the tracing data as perf's pipe mode
#                 writes it, a TRACING_DATA record (type 66) followed by it
# The formats are Linux 6.18's sched:sched_switch (id 372) and
# workqueue:workqueue_execute_start (id 335, a %ps function pointer).
import struct

HEADER_PAGE = (b"\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
               b"\tfield: local_t commit;\toffset:8;\tsize:8;\tsigned:1;\n"
               b"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
               b"\tfield: char data;\toffset:16;\tsize:4080;\tsigned:0;\n")
HEADER_EVENT = (b"# compressed entry header\n\ttype_len    :    5 bits\n"
                b"\ttime_delta  :   27 bits\n\tarray       :   32 bits\n\n"
                b"\tpadding     : type == 29\n\ttime_extend : type == 30\n"
                b"\ttime_stamp : type == 31\n\tdata max type_len  == 28\n")
COMMON = (b"format:\n"
          b"\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n"
          b"\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n"
          b"\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n"
          b"\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n")
STATES = b"".join(b" | 0x%08x" % (1 << i) for i in range(7))
MASK = b"((((0x00000000" + STATES + b") + 1) << 1) - 1)"
SWITCH = (b"name: sched_switch\nID: 372\n" + COMMON +
          b"\tfield:char prev_comm[16];\toffset:8;\tsize:16;\tsigned:0;\n"
          b"\tfield:pid_t prev_pid;\toffset:24;\tsize:4;\tsigned:1;\n"
          b"\tfield:int prev_prio;\toffset:28;\tsize:4;\tsigned:1;\n"
          b"\tfield:long prev_state;\toffset:32;\tsize:8;\tsigned:1;\n"
          b"\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;\n"
          b"\tfield:pid_t next_pid;\toffset:56;\tsize:4;\tsigned:1;\n"
          b"\tfield:int next_prio;\toffset:60;\tsize:4;\tsigned:1;\n\n"
          b"print fmt: \"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> "
          b"next_comm=%s next_pid=%d next_prio=%d\", REC->prev_comm, REC->prev_pid, "
          b"REC->prev_prio, (REC->prev_state & " + MASK + b") ? __print_flags(REC->prev_state & " +
          MASK + b", \"|\", { 0x00000001, \"S\" }, { 0x00000002, \"D\" }, { 0x00000004, \"T\" }, "
          b"{ 0x00000008, \"t\" }, { 0x00000010, \"X\" }, { 0x00000020, \"Z\" }, "
          b"{ 0x00000040, \"P\" }, { 0x00000080, \"I\" }) : \"R\", REC->prev_state & (((0x00000000" +
          STATES + b") + 1) << 1) ? \"+\" : \"\", REC->next_comm, REC->next_pid, REC->next_prio\n")
WORK = (b"name: workqueue_execute_start\nID: 335\n" + COMMON +
        b"\tfield:void * work;\toffset:8;\tsize:8;\tsigned:0;\n"
        b"\tfield:void * function;\toffset:16;\tsize:8;\tsigned:0;\n\n"
        b"print fmt: \"work struct %p: function %ps\", REC->work, REC->function\n")
PRINTK = b"0xffffffff8281942f : \"thaw_processes\"\n"


def tracing_data(big):
    e = ">" if big else "<"
    b = b"\x17\x08\x44tracing" + b"0.6\0" + bytes([1 if big else 0, 8]) + struct.pack(e + "I", 4096)
    b += b"header_page\0" + struct.pack(e + "Q", len(HEADER_PAGE)) + HEADER_PAGE
    b += b"header_event\0" + struct.pack(e + "Q", len(HEADER_EVENT)) + HEADER_EVENT
    b += struct.pack(e + "I", 0)                      # ftrace formats
    b += struct.pack(e + "I", 2)                      # systems
    for system, fmt in ((b"sched", SWITCH), (b"workqueue", WORK)):
        b += system + b"\0" + struct.pack(e + "I", 1) + struct.pack(e + "Q", len(fmt)) + fmt
    b += struct.pack(e + "I", 0)                      # kallsyms: none, as perf 6.1
    b += struct.pack(e + "I", len(PRINTK)) + PRINTK
    b += struct.pack(e + "Q", 0)                      # saved cmdlines
    return b


def comm16(s):
    return s.encode().ljust(16, b"\0")


def switch(big, pid, prev, ppid, prio, state, nxt, npid, nprio):
    e = ">" if big else "<"
    return (struct.pack(e + "HBBi", 372, 1, 0, pid) + comm16(prev) +
            struct.pack(e + "iiq", ppid, prio, state) + comm16(nxt) + struct.pack(e + "ii", npid, nprio))


def work(big, pid, w, fn):
    e = ">" if big else "<"
    return struct.pack(e + "HBBiQQ", 335, 0, 0, pid, w, fn)


def spec(big, pipe):
    td = tracing_data(big)
    out = ["# Made by make-specs.py: two tracepoints and cpu-clock; see cmd."]
    out.append("feature hostname synth")
    out.append("feature osrelease 6.18.0-synth")
    out.append("attr name=sched:sched_switch type=2 config=372 sample_period=1 sample_id_all=1 "
               "sample_type=IDENTIFIER,IP,TID,TIME,CPU,PERIOD,RAW,CALLCHAIN ids=11")
    out.append("attr name=workqueue:workqueue_execute_start type=2 config=335 sample_period=1 "
               "sample_id_all=1 sample_type=IDENTIFIER,IP,TID,TIME,CPU,PERIOD,RAW ids=12")
    out.append("attr name=cpu-clock type=1 config=0 sample_period=250000 sample_id_all=1 "
               "sample_type=IDENTIFIER,IP,TID,TIME,PERIOD,CALLCHAIN ids=13")
    if pipe:
        # perf's pipe mode: the record holds the padded size; the data follows it
        padded = td + b"\0" * (-len(td) % 8)
        out.append("raw type=66 size=16 bytes=" + (struct.pack("<II", len(padded), 0) + padded).hex())
    else:
        out.append("feature raw 1 " + td.hex())
    out += [
        "mmap pid=-1 tid=0 start=0xffffffff81000000 len=0x1000000 pgoff=0xffffffff81000000 "
        "filename=[kernel.kallsyms]_text misc=kernel id=13 time=500",
        "comm pid=100 tid=100 comm=app exec=1 id=13 time=1000",
        "comm pid=100 tid=101 comm=app-worker id=13 time=1001",
        "mmap2 pid=100 tid=100 start=0x400000 len=0x1000 pgoff=0 prot=5 flags=2 "
        "filename=/opt/app/bin/app id=13 time=1002",
        "sample id=11 pid=100 tid=100 time=2000000 cpu=0 period=1 ip=0xffffffff81001018 "
        "callchain=kernel:0xffffffff81001018,0xffffffff81001823,user:0x400123,0x400456 raw=" +
        switch(big, 100, "app", 100, 120, 2, "swapper/0", 0, 120).hex(),
        "sample id=11 pid=100 tid=101 time=2500000 cpu=1 period=1 ip=0xffffffff81001018 "
        "callchain=kernel:0xffffffff81001018,0xffffffff81001823,user:0x400200 raw=" +
        switch(big, 101, "app-worker", 101, 120, 0, "kworker/1:1", 52, 120).hex(),
        "sample id=12 pid=52 tid=52 time=2600000 cpu=1 period=1 ip=0xffffffff81002010 raw=" +
        work(big, 52, 0xffff888003f1c000, 0xffffffff81002040).hex(),
        "sample id=13 pid=100 tid=100 time=3000000 period=250000 ip=0x400123 "
        "callchain=user:0x400123,0x400456",
        "sample id=11 pid=100 tid=100 time=3500000 cpu=0 period=1 ip=0xffffffff81001018 "
        "callchain=kernel:0xffffffff81001018,0xffffffff81001823 raw=" +
        switch(big, 100, "app", 100, 120, 0x101, "app-worker", 101, 120).hex(),
    ]
    return "\n".join(out) + "\n"


for name, big, pipe in (("tp.spec", False, False), ("tp-be.spec", True, False),
                        ("tp-pipe.spec", False, True)):
    with open(name, "w") as f:
        f.write(spec(big, pipe))
