#!/usr/bin/perl
# compare-folded.pl: how far two folded-stack files ("STACK COUNT" lines)
# agree.
#
#   compare-folded.pl [--min PCT] [--top N] [--label-a NAME] [--label-b NAME] A B
#
# Prints the samples in each file, the samples in identical stacks (the sum
# over stacks of min(countA, countB)), the agreement (that sum as a
# percentage of the larger total, so missing samples count against it), and
# the N stacks whose counts differ most.
#
# A stack listed twice in one file has its counts added.
#
# --wild: a frame of A that is "*" (or "*" followed by an annotation suffix
# such as "_[k]") stands for any one frame of B (with that suffix), as
# fold-perf-script.pl --caller-start-wild writes them. Exact matches are
# counted first; then each wild stack of A takes, in a fixed order, what is
# left of the B stacks it matches. The samples matched that way are
# reported.
#
# Exit status: 0 agreement >= PCT (default 99), 1 below it or both files
# empty, 2 usage error or a malformed file.

use strict;
use warnings;
use Getopt::Long qw(:config no_ignore_case bundling);

my $min = 99;
my $top = 10;
my ($label_a, $label_b) = ('A', 'B');
my $width = 300;	# longest stack shown; 0 = whole stack
my $wild = 0;

sub usage {
	my ($status) = @_;
	my $fh = $status ? *STDERR : *STDOUT;
	print $fh <<'EOF';
usage: compare-folded.pl [OPTIONS] A B
  --min PCT        least agreement, in percent, that passes (default 99)
  --top N          show the N stacks that differ most (default 10)
  --label-a NAME   name A in the report (default A)
  --label-b NAME   name B in the report (default B)
  --width N        cut stacks longer than N characters in the report,
                   keeping the leaf end (default 300, 0 = never)
  --wild           a frame "*" (or "*SUFFIX") in A matches any frame of B
                   (ending in SUFFIX)
  -h, --help       show this help
EOF
	exit $status;
}

GetOptions('min=f' => \$min, 'top=i' => \$top, 'label-a=s' => \$label_a,
	   'label-b=s' => \$label_b, 'width=i' => \$width, 'wild' => \$wild,
	   'help|h' => sub { usage(0) })
	or usage(2);
usage(2) unless @ARGV == 2;

# Returns (hashref stack -> count, total).
sub read_folded {
	my ($path) = @_;
	my (%count, $total);
	open(my $fh, '<', $path) or do {
		print STDERR "compare-folded: cannot open '$path': $!\n";
		exit 2;
	};
	$total = 0;
	while (my $line = <$fh>) {
		chomp $line;
		next if $line eq '';
		if ($line !~ /^(.+) (\d+)$/) {
			print STDERR "compare-folded: $path:$.: not 'STACK COUNT': $line\n";
			exit 2;
		}
		$count{$1} += $2;
		$total += $2;
	}
	close $fh;
	return (\%count, $total);
}

sub pct {
	my ($part, $whole) = @_;
	return $whole ? 100 * $part / $whole : 0;
}

sub shorten {
	my ($stack) = @_;
	return $stack if !$width || length($stack) <= $width;
	return '...' . substr($stack, -($width - 3));
}

my ($fa, $total_a) = read_folded($ARGV[0]);
my ($fb, $total_b) = read_folded($ARGV[1]);
my %all = (%$fa, %$fb);
my ($same, $same_wild, @diff) = (0, 0);
my (%left_a, %left_b);	# counts not matched exactly

for my $stack (keys %all) {
	my $ca = $fa->{$stack} // 0;
	my $cb = $fb->{$stack} // 0;
	my $m = $ca < $cb ? $ca : $cb;
	$same += $m;
	$left_a{$stack} = $ca - $m if $ca > $m;
	$left_b{$stack} = $cb - $m if $cb > $m;
}

sub is_wild { return $_[0] =~ /^\*/; }

# Whether wild frame list A matches frame list B.
sub wild_match {
	my ($fa, $fb) = @_;
	for my $i (0 .. $#$fa) {
		my ($x, $y) = ($fa->[$i], $fb->[$i]);
		next if $x eq $y;
		return 0 unless is_wild($x);
		my $suffix = substr($x, 1);
		return 0 unless length($y) >= length($suffix) &&
			substr($y, length($y) - length($suffix)) eq $suffix;
	}
	return 1;
}

if ($wild) {
	# B's leftover stacks by frame count and leaf (a leaf is never wild).
	my %by_shape;
	for my $stack (sort keys %left_b) {
		my @f = split /;/, $stack, -1;
		push @{$by_shape{scalar(@f) . "\0" . $f[-1]}}, [$stack, \@f];
	}
	for my $stack (sort keys %left_a) {
		my @f = split /;/, $stack, -1;
		next unless grep { is_wild($_) } @f;
		for my $cand (@{$by_shape{scalar(@f) . "\0" . $f[-1]} // []}) {
			last unless $left_a{$stack};
			my $nb = $left_b{$cand->[0]} or next;
			next unless wild_match(\@f, $cand->[1]);
			my $m = $left_a{$stack} < $nb ? $left_a{$stack} : $nb;
			$left_a{$stack} -= $m;
			$left_b{$cand->[0]} -= $m;
			$same_wild += $m;
		}
	}
	$same += $same_wild;
}
for my $stack (keys %all) {
	my ($ca, $cb) = ($left_a{$stack} // 0, $left_b{$stack} // 0);
	push @diff, [$stack, $ca, $cb] if $ca != $cb;
}

my $larger = $total_a > $total_b ? $total_a : $total_b;
my $agreement = pct($same, $larger);
my $la = length($label_a) > length($label_b) ? length($label_a) : length($label_b);

printf "%-*s %9d samples, %6d stacks  (%s)\n", $la, $label_a, $total_a,
	scalar(keys %$fa), $ARGV[0];
printf "%-*s %9d samples, %6d stacks  (%s)\n", $la, $label_b, $total_b,
	scalar(keys %$fb), $ARGV[1];
printf "%-*s %9d samples in identical stacks", $la, 'same', $same;
printf " (%d of them through a wild caller frame)", $same_wild if $wild;
print "\n";
printf "agreement %.2f%% (need %g%%), %d stacks differ\n", $agreement, $min,
	scalar @diff;

if (@diff && $top > 0) {
	@diff = sort { abs($b->[1] - $b->[2]) <=> abs($a->[1] - $a->[2])
		       || $a->[0] cmp $b->[0] } @diff;
	splice(@diff, $top) if @diff > $top;
	printf "top %d stacks with unmatched samples (%s %s stack):\n", scalar @diff,
		$label_a, $label_b;
	printf "  %6d %6d %s\n", $_->[1], $_->[2], shorten($_->[0]) for @diff;
}

if (!$larger) {
	print "both profiles are empty\n";
	exit 1;
}
exit($agreement >= $min ? 0 : 1);
