# The CPython workload of the live tests (t-python312-fp.sh, t-dwarf-python.sh,
# t-timeline.sh): outer -> middle -> leaf for argv[1] seconds.
import sys, time
def leaf(n):
    s = 0
    for i in range(n):
        s += i * i
    return s
def middle(n):
    return leaf(n) + leaf(n // 2)
def outer(seconds):
    end = time.time() + seconds
    t = 0
    while time.time() < end:
        t += middle(2000)
    return t
outer(float(sys.argv[1]))
