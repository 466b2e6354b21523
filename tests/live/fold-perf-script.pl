#!/usr/bin/perl
# fold-perf-script.pl: fold "perf script" text into one line per distinct
# stack, the format flamegraph.pl reads, so the live tests can compare
# "jitsym fold" with perf's own symbolisation.
#
#   perf script -i perf.data | fold-perf-script.pl [OPTIONS] > perf.folded
#   perf script -i perf.data | fold-perf-script.pl --normalize > perf.norm
#
# Input: perf script's default output with call chains (perf record -g):
#
#   demo sorter  7809   523.449035:     500000 cpu-clock:
#   \t            17da cmp_keys+0xa (/tmp/nd/native-demo)
#   \tffffffff821e86a7 clear_page_erms+0x7 ([kernel.kallsyms])
#   \t               0 [unknown] ([unknown])
#   (blank line)
#
# The header is "COMM TID" by default and "COMM PID/TID" with
# "perf script -F +pid"; COMM may contain spaces. Lines starting with '#'
# (perf script --header) are skipped.
#
# Output, one line per distinct stack, sorted bytewise, like
# stackcollapse-perf.pl:
#
#   COMM;OUTERMOST;...;LEAF COUNT
#
#   - frames outermost first; COUNT is the number of samples (with
#     --weight=period, the sum of the period column perf script prints
#     before the event name, as current stackcollapse-perf.pl sums it; a
#     sample without one counts 1)
#   - the "+0xOFF" offset is dropped from symbols
#   - a symbol perf could not resolve stays "[unknown]" (with
#     --unknown-module it becomes "[DSO-BASENAME]" when the DSO is known,
#     as current stackcollapse-perf.pl does)
#   - spaces in COMM become '_'; ';' anywhere in a name becomes ':' (it is
#     the separator)
#   - --include-pid: COMM-PID; --include-tid: COMM-PID/TID. Both need the
#     PID in the input (perf script -F +pid); without it PID is "?", as in
#     stackcollapse-perf.pl, with a warning
#   - --annotate: kernel frames get "_[k]", JIT frames (DSO /tmp/perf-N.map
#     or jitted-N-M.so) get "_[j]". A kernel frame is one in the leading
#     run of upper-half addresses (perf prints the kernel part of a call
#     chain first), so an unresolved kernel address is "[unknown]_[k]";
#     stackcollapse-perf.pl decides by DSO name and leaves it "[unknown]"
#   - --plt-wild (with --normalize): a frame named NAME@plt or .plt is "*":
#     perf 6.1 names x86 PLT entries in .rela.plt order, which is not
#     theirs where IFUNC (IRELATIVE) entries are, those "@plt", and leaves
#     the PLT header to the symbol before it or unnamed (6.12: ".plt")
#   - --caller-start-wild: a caller frame (not the leaf) that perf prints
#     at "+0x0" is named "*" (with its _[k]/_[j] suffix under --annotate):
#     its return address is the first byte of a symbol, so the call was
#     made from the code before it, which jitsym names (it looks return
#     addresses up at ip - 1) and perf does not; compare-folded.pl --wild
#     lets "*" stand for any one frame; not the first user frame after
#     kernel frames, which is where the user code was interrupted
#   - a frame at address ffffffffffffffff is dropped: it is no code, but
#     the mark perf's dwarf unwinder leaves where it gave up on a stack
#     (jitsym ends such a stack at its last real frame)
#   - --tidy: stackcollapse-perf.pl's name tidying: drop everything from
#     the first '(' (C++ parameter lists) unless the name looks like a Go
#     method "pkg.(*T).M", and delete quote characters
#
# --normalize prints, instead of folding, one line per input line with only
# what the live tests compare between "perf script" and "jitsym script":
#
#   H<TAB>COMM<TAB>PID<TAB>TID<TAB>TIME<TAB>EVENT    header ("-" if no PID)
#   F<TAB>SYMBOL<TAB>DSO                             frame, offset dropped
#   (empty)                                          blank line
#
# Exit status: 0 ok, 1 input had lines that are not perf script text
# (reported on stderr), 2 usage error.

use strict;
use warnings;
use Getopt::Long qw(:config no_ignore_case bundling);

my %opt = (
	'include-pid' => 0,
	'include-tid' => 0,
	'annotate' => 0,
	'unknown-module' => 0,
	'tidy' => 0,
	'normalize' => 0,
	'caller-start-wild' => 0,
	'plt-wild' => 0,
	'cut-after-vdso' => 0,
	'weight' => 'count',
);

sub usage {
	my ($status) = @_;
	my $fh = $status ? *STDERR : *STDOUT;
	print $fh <<'EOF';
usage: fold-perf-script.pl [OPTIONS] [FILE...]
  --include-pid     prefix stacks with COMM-PID (needs perf script -F +pid)
  --include-tid     prefix stacks with COMM-PID/TID
  --annotate        suffix kernel frames with _[k], JIT frames with _[j]
  --unknown-module  name an unresolved symbol after its DSO: [libc.so.6]
  --tidy            strip C++ parameter lists and quotes from names
  --weight=period   sum the samples' periods instead of counting them
  --normalize       print header and frame fields line by line, no folding
  --caller-start-wild  a caller frame at sym+0x0 gets symbol "*" (jitsym
                    resolves return addresses at ip - 1): in folded stacks
                    for compare-folded.pl --wild, and with --normalize
  --plt-wild        with --normalize: a frame in a PLT entry (NAME@plt) or
                    header (.plt) gets symbol "*": perf 6.1 names x86 PLT
                    entries in relocation order, not GOT order, an IFUNC's
                    entry "@plt", and no header; jitsym names them as perf
                    6.12 does
  --cut-after-vdso  with --normalize: drop the frames below a [vdso] frame
                    (perf without the vdso's image stops there; jitsym
                    may go on by frame pointer)
  -h, --help        show this help
EOF
	exit $status;
}

GetOptions(\%opt, 'include-pid', 'include-tid', 'annotate',
	   'unknown-module', 'tidy', 'normalize', 'caller-start-wild', 'plt-wild', 'cut-after-vdso',
	   'weight=s', 'help|h' => sub { usage(0) })
	or usage(2);
usage(2) unless $opt{weight} eq 'count' || $opt{weight} eq 'period';

# x86-64 and arm64 kernels live in the upper half of the address space.
sub is_kernel_addr {
	my ($addr) = @_;
	return length($addr) == 16 && $addr =~ /^[89a-f]/;
}

sub is_jit_frame {
	my ($dso) = @_;
	return $dso =~ m{(?:^|/)perf-\d+\.map$} || $dso =~ m{(?:^|/)jitted-\d+-\d+\.so$};
}

# Parse a header line: returns (comm, pid, tid, time, event, period) or
# (), period undef when the line has none.
# COMM is matched lazily and the rest of the line must fit, so a COMM with
# spaces and digits in it ("V8 Worker 2") is still taken whole.
sub parse_header {
	my ($line) = @_;
	return $line =~ m{
		^\s*(.*?)			# comm
		\s+(-?\d+)(?:/(-?\d+))?	# tid, or pid/tid (-1: no task)
		\s+(?:\[\d+\]\s+)?		# optional [cpu]
		(\d+\.\d+):			# time
		\s+(?:(\d+)\s+)?		# optional period
		(\S+):(?:\s.*)?$		# event, then optional payload
	}x ? ($1, defined $3 ? $2 : undef, defined $3 ? $3 : $2, $4, $6, $5) : ();
}

# Parse a frame line: returns (addr, symbol without offset, dso) or ().
sub parse_frame {
	my ($line) = @_;
	my ($addr, $sym, $dso);

	# Symbols may contain " (" (C++) and DSO paths may contain parentheses
	# or end in " (deleted)". A DSO name starts with '/' or '[', so take
	# the first " (/" or " ([" that runs to the end of the line; failing
	# that, the last parenthesised group.
	if ($line =~ m{^\t\s*([0-9a-f]+) (.*?) \(([/\[].*)\)$} ||
	    $line =~ m{^\t\s*([0-9a-f]+) (.*) \((.*)\)$}) {
		($addr, $sym, $dso) = ($1, $2, $3);
	} else {
		return ();
	}
	$sym =~ s/\+0x[0-9a-f]+$//;
	return ($addr, $sym, $dso);
}

sub tidy_name {
	my ($name) = @_;
	$name =~ s/\((?!anonymous namespace\)).*// unless $name =~ /\.\(.*\)\./;
	$name =~ tr/"'//d;
	return $name;
}

# KERNEL: the frame is in the kernel part of the call chain.
sub frame_name {
	my ($kernel, $addr, $sym, $dso) = @_;
	my $name = $sym;

	if ($name eq '[unknown]' && $opt{'unknown-module'} && $dso ne '[unknown]') {
		($name = $dso) =~ s{.*/}{};
		$name = "[$name]";
	}
	$name = tidy_name($name) if $opt{tidy};
	$name =~ tr/;/:/;
	if ($opt{annotate}) {
		if ($kernel) {
			$name .= '_[k]';
		} elsif (is_jit_frame($dso)) {
			$name .= '_[j]';
		}
	}
	return $name;
}

my $warned_pid = 0;

sub stack_prefix {
	my ($comm, $pid, $tid) = @_;
	my $p = $comm;

	if ($opt{'include-pid'} || $opt{'include-tid'}) {
		if (!defined $pid) {
			warn "fold-perf-script: no PID in the input, using '?' (run perf script -F +pid)\n"
				unless $warned_pid++;
			$pid = '?';
		}
		$p .= $opt{'include-tid'} ? "-$pid/$tid" : "-$pid";
	}
	$p =~ tr/ /_/;
	$p =~ tr/;/:/;
	return $p;
}

my %count;		# folded stack -> samples
my ($prefix, @frames);	# the sample being read; frames leaf first
my $weight;		# its weight: 1, or its period with --weight=period
my $in_kernel;		# still in the kernel part of its call chain
my $bad = 0;

sub end_sample {
	return unless defined $prefix;
	$count{join(';', $prefix, reverse @frames)} += $weight;
	undef $prefix;
	@frames = ();
}

sub bad_line {
	my ($line) = @_;
	warn "fold-perf-script: $ARGV:$.: not perf script text: $line\n" if $bad < 10;
	$bad++;
}

sub fold_line {
	my ($line) = @_;

	if ($line eq '') {
		end_sample();
	} elsif ($line =~ /^\t/) {
		my @f = parse_frame($line);
		if (!@f) {
			bad_line($line);
		} elsif (!defined $prefix) {
			bad_line($line);	# a frame outside any sample
		} elsif ($f[0] eq 'ffffffffffffffff') {
			# perf's mark where its dwarf unwinder gave up: no frame
		} else {
			# perf lists the kernel part of a call chain first,
			# then the user part, which starts at a user address.
			# The first user frame after kernel frames is where
			# the user code was interrupted, no caller.
			my $entry = $in_kernel && @frames && !is_kernel_addr($f[0]);
			$in_kernel &&= is_kernel_addr($f[0]);
			$f[1] = '*' if $opt{'caller-start-wild'} && @frames && !$entry &&
				$line =~ /\+0x0 \(/;
			push @frames, frame_name($in_kernel, @f);
		}
	} else {
		my @h = parse_header($line);
		if (!@h) {
			bad_line($line);
			return;
		}
		end_sample();		# tolerate a missing blank line
		$prefix = stack_prefix(@h[0 .. 2]);
		$weight = $opt{weight} eq 'period' && defined $h[5] ? $h[5] : 1;
		$in_kernel = 1;
	}
}

# Frames printed since the last header: the first one is the leaf.
my $norm_frames = 0;
my $norm_cut = 0;	# --cut-after-vdso: the sample's [vdso] frame was printed
my $norm_kernel = 0;	# the frame before was a kernel frame

sub normalize_line {
	my ($line) = @_;
	my @f;

	if ($line eq '') {
		print "\n";
	} elsif ($line =~ /^\t/) {
		@f = parse_frame($line) or return bad_line($line);
		return if $norm_cut || $f[0] eq 'ffffffffffffffff';
		$norm_cut = $opt{'cut-after-vdso'} && $f[2] eq '[vdso]';
		# --caller-start-wild: a caller frame whose return address is the
		# first byte of a symbol (perf prints "+0x0") was called from before
		# that symbol; jitsym names the caller there (it looks return
		# addresses up at ip - 1), so the symbol becomes "*", any name.
		# (not the first user frame after kernel frames: an interrupted ip)
		my $entry = $norm_kernel && !is_kernel_addr($f[0]);
		$f[1] = '*' if $opt{'caller-start-wild'} && $norm_frames > 0 && !$entry &&
			$line =~ /\+0x0 \(/;
		$f[1] = '*' if $opt{'plt-wild'} && ($f[1] =~ /\@plt$/ || $f[1] eq '.plt');
		$norm_kernel = is_kernel_addr($f[0]);
		$norm_frames++;
		print join("\t", 'F', @f[1, 2]), "\n";
	} else {
		$norm_frames = 0;
		$norm_cut = 0;
		$norm_kernel = 0;
		@f = parse_header($line) or return bad_line($line);
		$f[1] = '-' unless defined $f[1];
		print join("\t", 'H', @f[0 .. 4]), "\n";
	}
}

while (my $line = <>) {
	chomp $line;
	next if $line =~ /^#/;
	if ($opt{normalize}) {
		normalize_line($line);
	} else {
		fold_line($line);
	}
} continue {
	close ARGV if eof;	# per-file line numbers in messages
}
end_sample();

if (!$opt{normalize}) {
	print "$_ $count{$_}\n" for sort keys %count;
}
if ($bad) {
	warn "fold-perf-script: $bad line(s) were not perf script text\n";
	exit 1;
}
exit 0;
