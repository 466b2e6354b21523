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
# (perf script --header) are skipped. A function inlined at an address is
# a line of its own before the frame it is inlined in (perf 6.1 prints
# them for --call-graph dwarf stacks, unless --no-inline), with the same
# address and "(inlined)" for the DSO:
#
#   \t            1338 xorshift+0x168 (inlined)
#   \t            1338 main+0x168 (/tmp/nd/native-demo)
#
# Such a line is a frame like any other, as stackcollapse-perf.pl folds it.
# perf decides "(inlined)" by name: a line whose name is not the ELF
# symbol's is "(inlined)", the real frame too when DWARF names it
# otherwise (__libc_start_main_impl in __libc_start_main, msort_with_tmp in
# msort_with_tmp.part.0), and an inlined function named as the symbol is
# printed with the DSO. --real-frames tells them apart (below).
# Other "perf script -F" layouts (srcline lines, ...) are not read.
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
#   - --annotate: inlined functions' frames get "_[i]", as jitsym fold
#     --annotate marks them (without --real-frames: every "(inlined)"
#     line), other kernel frames "_[k]", other JIT frames (DSO
#     /tmp/perf-N.map or jitted-N-M.so) "_[j]". A kernel frame is one in
#     the leading run of upper-half addresses (perf prints the kernel part
#     of a call chain first), so an unresolved kernel address is
#     "[unknown]_[k]"; stackcollapse-perf.pl decides by DSO name and leaves
#     it "[unknown]"
#   - --real-frames=FILE: FILE is "perf script --no-inline" of the same
#     recording (the same samples with their real frames only). A run of
#     R lines at one address over K real frames there (recursion repeats
#     an address) is K times the one chain of R/K lines that address has,
#     each ending in its real frame: that line is a real frame and gets the
#     DSO FILE prints for it, the others are inlined ("inlined"), whatever
#     perf's name comparison printed (the counts of both go to stderr).
#     This is perf's own convention undone, not a tolerance: names are
#     kept as they are, and a sample that does not fit is an error
#   - --plt-wild (with --normalize): a frame named NAME@plt or .plt is "*":
#     perf 6.1 names x86 PLT entries in .rela.plt order, which is not
#     theirs where IFUNC (IRELATIVE) entries are, those "@plt", and leaves
#     the PLT header to the symbol before it or unnamed (6.12: ".plt")
#   - --caller-start-wild: a caller frame (not the leaf) that perf prints
#     at "+0x0" is named "*" (with its _[i]/_[k]/_[j] suffix under
#     --annotate; so are the inlined frames printed at its address):
#     its return address is the first byte of a symbol, so the call was
#     made from the code before it, which jitsym names (it looks return
#     addresses up at ip - 1) and perf does not; compare-folded.pl --wild
#     lets "*" stand for any one frame; not the first user frame after
#     kernel frames, which is where the user code was interrupted (nor the
#     inlined frames at the leaf's or that frame's address)
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
#                                                    (DSO "inlined": an
#                                                    inlined function)
#   (empty)                                          blank line
#
# Exit status: 0 ok, 1 input had lines that are not perf script text, or
# a --real-frames file that does not fit the input
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
	'real-frames' => undef,
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
  --real-frames=FILE  FILE is perf script --no-inline of the same
                    recording: tells which "(inlined)" lines are real frames
  -h, --help        show this help
EOF
	exit $status;
}

GetOptions(\%opt, 'include-pid', 'include-tid', 'annotate',
	   'unknown-module', 'tidy', 'normalize', 'caller-start-wild', 'plt-wild', 'cut-after-vdso',
	   'real-frames=s', 'weight=s', 'help|h' => sub { usage(0) })
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

# Parse a frame line: returns (addr, symbol without offset, dso) or ();
# dso is "inlined" for perf's line of a function inlined at addr.
sub parse_frame {
	my ($line) = @_;
	my ($addr, $sym, $dso);

	# "\t ADDR NAME+0xOFF (inlined)": no DSO is named "inlined" (a DSO
	# name starts with '/' or '['), so this is perf's inline frame.
	if ($line =~ m{^\t\s*([0-9a-f]+) (.*) \(inlined\)$}) {
		($addr, $sym) = ($1, $2);
		$sym =~ s/\+0x[0-9a-f]+$//;
		return ($addr, $sym, 'inlined');
	}
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

# A frame's name in the folded stack; F as end_sample() has placed it.
sub frame_name {
	my ($f) = @_;
	my ($name, $dso) = ($f->{sym}, $f->{dso});

	if ($name eq '[unknown]' && $opt{'unknown-module'} && $dso ne '[unknown]') {
		($name = $dso) =~ s{.*/}{};
		$name = "[$name]";
	}
	$name = tidy_name($name) if $opt{tidy};
	$name =~ tr/;/:/;
	if ($opt{annotate}) {
		if (!$f->{real}) {
			$name .= '_[i]';
		} elsif ($f->{kernel}) {
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
my $bad = 0;
my $real_fh;		# --real-frames: perf script --no-inline of the same recording
my $real_outer = 0;	# real frames perf printed "(inlined)", given their DSO back
my $inline_named = 0;	# inlined frames perf printed with the DSO, made "inlined"

sub bad_line {
	my ($line) = @_;
	warn "fold-perf-script: $ARGV:$.: not perf script text: $line\n" if $bad < 10;
	$bad++;
}

# A --real-frames file that does not fit the input: exit 1.
sub real_frames_error {
	my ($msg) = @_;
	print STDERR "fold-perf-script: $opt{'real-frames'}$msg";
	exit 1;
}

# The next sample of the --real-frames file: (header fields, frames), or
# () at its end. Frames as parse_frame returns them, -1 marks dropped.
sub next_real_sample {
	my (@h, @f);
	while (my $line = <$real_fh>) {
		chomp $line;
		next if $line =~ /^#/;
		if ($line eq '') {
			return (\@h, \@f) if @h;
		} elsif ($line =~ /^\t/) {
			my @x = parse_frame($line);
			real_frames_error ":$.: not perf script text: $line\n"
				unless @x && @h;
			push @f, [@x] unless $x[0] eq 'ffffffffffffffff';
		} else {
			return (\@h, \@f) if @h;	# no blank line before it
			@h = parse_header($line)
				or real_frames_error ":$.: not perf script text: $line\n";
		}
	}
	return @h ? (\@h, \@f) : ();
}

# Mark which frames of a sample are real (not inlined) frames, from the
# same sample of the --real-frames text: a run of R lines at one address
# here over K real frames there is K times one chain of R/K lines (one
# address, one chain), the last line of each the real frame, which gets the
# DSO perf script --no-inline prints for it.
sub mark_real_frames {
	my ($h, $frames) = @_;
	my ($rh, $rf) = next_real_sample();
	my $what = "sample at $h->[3]";

	real_frames_error ": no $what: not the same recording\n"
		unless $rh;
	real_frames_error ": sample at $rh->[3] where the input has its $what:" .
		" not the same recording\n" unless $rh->[3] eq $h->[3] && $rh->[2] eq $h->[2];
	my ($i, $g) = (0, 0);
	while ($i < @$frames) {
		my $addr = $frames->[$i]{addr};
		my ($r, $k) = (0, 0);
		$r++ while $i + $r < @$frames && $frames->[$i + $r]{addr} eq $addr;
		$k++ while $g + $k < @$rf && $rf->[$g + $k][0] eq $addr;
		real_frames_error ": $what: $r line(s) at $addr here," .
			" $k real frame(s) there\n" unless $k && $r % $k == 0;
		my $c = $r / $k;
		for my $t (0 .. $r - 1) {
			my $f = $frames->[$i + $t];
			$f->{real} = ($t + 1) % $c == 0;
			if ($f->{real} && $f->{dso} eq 'inlined') {
				$f->{dso} = $rf->[$g + ($t + 1) / $c - 1][2];
				$real_outer++;
			} elsif (!$f->{real} && $f->{dso} ne 'inlined') {
				$f->{dso} = 'inlined';
				$inline_named++;
			}
		}
		$i += $r;
		$g += $k;
	}
	real_frames_error ": $what: " . (@$rf - $g) .
		" real frame(s) more there\n" if $g < @$rf;
}

# The sample being read: its header fields and its frames, leaf first,
# each { addr, sym, dso, off0 (printed at "+0x0") }.
my ($cur_h, @cur_frames);

# Work out each frame's place in its sample: kernel (in the leading run of
# upper-half addresses: perf prints the kernel part of a call chain first),
# caller (not the leaf, nor the first user frame after kernel frames, which
# is where user code was interrupted; all the lines printed at one address
# share that), real (not an inlined function).
sub place_frames {
	my ($h, $frames) = @_;
	my $in_kernel = 1;
	my $prev;

	for my $i (0 .. $#$frames) {
		my $f = $frames->[$i];
		$f->{real} = $f->{dso} ne 'inlined';
		if ($prev && $prev->{addr} eq $f->{addr}) {
			$f->{kernel} = $prev->{kernel};
			$f->{caller} = $prev->{caller};
		} else {
			my $entry = $in_kernel && $i > 0 && !is_kernel_addr($f->{addr});
			$in_kernel &&= is_kernel_addr($f->{addr});
			$f->{kernel} = $in_kernel;
			$f->{caller} = $i > 0 && !$entry;
		}
		$prev = $f;
	}
	mark_real_frames($h, $frames) if $real_fh;
}

sub end_sample {
	return unless defined $cur_h;
	my @h = @$cur_h;
	my $frames = [@cur_frames];
	undef $cur_h;
	@cur_frames = ();
	place_frames(\@h, $frames);
	# --caller-start-wild: a caller frame whose return address is the
	# first byte of a symbol (perf prints "+0x0") was called from before
	# that symbol; jitsym names the caller there (it looks return
	# addresses up at ip - 1), so the symbol becomes "*", any name.
	for my $f (@$frames) {
		$f->{sym} = '*' if $opt{'caller-start-wild'} && $f->{caller} && $f->{off0};
	}
	if ($opt{normalize}) {
		$h[1] = '-' unless defined $h[1];
		print join("\t", 'H', @h[0 .. 4]), "\n";
		for my $f (@$frames) {
			$f->{sym} = '*' if $opt{'plt-wild'} && ($f->{sym} =~ /\@plt$/ || $f->{sym} eq '.plt');
			print join("\t", 'F', $f->{sym}, $f->{dso}), "\n";
			last if $opt{'cut-after-vdso'} && $f->{dso} eq '[vdso]';
		}
		return;
	}
	my $weight = $opt{weight} eq 'period' && defined $h[5] ? $h[5] : 1;
	my @names = map { frame_name($_) } @$frames;
	$count{join(';', stack_prefix(@h[0 .. 2]), reverse @names)} += $weight;
}

sub read_line {
	my ($line) = @_;

	if ($line eq '') {
		end_sample();
		print "\n" if $opt{normalize};
	} elsif ($line =~ /^\t/) {
		my @f = parse_frame($line);
		if (!@f) {
			bad_line($line);
		} elsif (!defined $cur_h) {
			bad_line($line);	# a frame outside any sample
		} elsif ($f[0] eq 'ffffffffffffffff') {
			# perf's mark where its dwarf unwinder gave up: no frame
		} else {
			push @cur_frames, { addr => $f[0], sym => $f[1], dso => $f[2],
					    off0 => $line =~ /\+0x0 \(/ ? 1 : 0 };
		}
	} else {
		my @h = parse_header($line);
		if (!@h) {
			bad_line($line);
			return;
		}
		end_sample();		# tolerate a missing blank line
		$cur_h = \@h;
	}
}

if (defined $opt{'real-frames'}) {
	open($real_fh, '<', $opt{'real-frames'})
		or die "fold-perf-script: cannot open '$opt{'real-frames'}': $!\n";
}
while (my $line = <>) {
	chomp $line;
	next if $line =~ /^#/;
	read_line($line);
} continue {
	close ARGV if eof;	# per-file line numbers in messages
}
end_sample();
if ($real_fh) {
	my @rest = next_real_sample();
	real_frames_error ": samples beyond the input's: not the same recording\n"
		if @rest;
	warn "fold-perf-script: by $opt{'real-frames'}: $real_outer real frame(s) perf printed" .
		" (inlined), $inline_named inlined one(s) it printed with the DSO\n";
}

if (!$opt{normalize}) {
	print "$_ $count{$_}\n" for sort keys %count;
}
if ($bad) {
	warn "fold-perf-script: $bad line(s) were not perf script text\n";
	exit 1;
}
exit 0;
