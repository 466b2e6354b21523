#!/usr/bin/perl
# png-colours.pl FILE.png [#RRGGBB...]: "WxH colours=N commonest=P%" of an
# 8-bit RGB or RGBA PNG (all filter types), for the browser tests' "is the
# screenshot blank" check: how many distinct colours, and the share of the
# commonest (the background). With colours, " matching=M" too: the pixels
# of exactly those colours (where the frames filled with them show). Needs
# Compress::Zlib; dies with one line on a PNG it cannot read.
use strict;
use warnings;
use Compress::Zlib;

my ($file, @want) = @ARGV;
local $/;
open my $fh, '<:raw', $file or die "$file: $!\n";
my $d = <$fh>;
substr($d, 0, 8) eq "\x89PNG\r\n\x1a\n" or die "not a PNG\n";
my ($pos, $w, $h, $bd, $ct, $idat) = (8, 0, 0, 0, 0, '');
while ($pos + 8 <= length $d) {
	my ($len, $type) = unpack 'N a4', substr($d, $pos, 8);
	my $body = substr($d, $pos + 8, $len);
	$pos += 12 + $len;
	($w, $h, $bd, $ct) = unpack 'N N C C', $body if $type eq 'IHDR';
	$idat .= $body if $type eq 'IDAT';
}
$bd == 8 && ($ct == 2 || $ct == 6) or die "PNG with bit depth $bd, colour type $ct\n";
my $bpp = $ct == 6 ? 4 : 3;
my $raw = uncompress($idat);
defined $raw or die "bad zlib data\n";
my $stride = $w * $bpp;
my @prev = (0) x $stride;
my %col;
for my $y (0 .. $h - 1) {
	my $f = ord substr($raw, $y * ($stride + 1), 1);
	my @c = unpack 'C*', substr($raw, $y * ($stride + 1) + 1, $stride);
	for my $i (0 .. $#c) {
		my $a = $i >= $bpp ? $c[$i - $bpp] : 0;
		my $b = $prev[$i];
		my $q = $i >= $bpp ? $prev[$i - $bpp] : 0;
		if ($f == 1) { $c[$i] += $a }
		elsif ($f == 2) { $c[$i] += $b }
		elsif ($f == 3) { $c[$i] += int(($a + $b) / 2) }
		elsif ($f == 4) {
			my $p = $a + $b - $q;
			my ($pa, $pb, $pc) = (abs($p - $a), abs($p - $b), abs($p - $q));
			$c[$i] += $pa <= $pb && $pa <= $pc ? $a : $pb <= $pc ? $b : $q;
		}
		$c[$i] &= 255;
	}
	@prev = @c;
	for (my $i = 0; $i < @c; $i += $bpp) { $col{"$c[$i],$c[$i+1],$c[$i+2]"}++ }
}
my ($top) = sort { $b <=> $a } values %col;
printf "%dx%d colours=%d commonest=%d%%", $w, $h, scalar keys %col, 100 * $top / ($w * $h);
if (@want) {
	my %seen;
	my $m = 0;
	for (@want) {
		/^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i or die "not a colour: $_\n";
		my $k = join ',', hex $1, hex $2, hex $3;
		$m += $col{$k} // 0 unless $seen{$k}++;
	}
	printf " matching=%d", $m;
}
print "\n";
