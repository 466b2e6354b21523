# help2roff.awk: the COMMANDS part of jitsym.1, from the --help texts.
#
# Input (doc/mkman.sh makes it): for each command a line
# "@@CMD NAME<TAB>ONE-LINE HELP", then that command's --help output.
# A --help text is: "usage: jitsym NAME ...", paragraphs of prose, option
# lines ("  -x, --long ARG   what it does", continued by lines indented
# further), and blocks under a heading ("Options for reading the
# recording:"). A headed block every command shares is written once, as
# a section of its own after COMMANDS; a command whose block differs
# gets its own copy. Roff comments mark both for tests/cli/t-man.sh:
# '.\" shared: HEADING' in a command, '.\" shared-section: HEADING'.

# s with roff's special characters escaped, for a text line
function esc(s,    out, i, c) {
	out = ""
	for (i = 1; i <= length(s); i++) {
		c = substr(s, i, 1)
		if (c == "\\")
			out = out "\\e"
		else if (c == "-")
			out = out "\\-"
		else
			out = out c
	}
	if (out ~ /^[.']/)
		out = "\\&" out
	return out
}

function trim(s) {
	sub(/^ +/, "", s)
	sub(/ +$/, "", s)
	return s
}

# The column (1-based) where line's description starts, or 0: two spaces
# before it, or the block's column col where one space is before it.
function desc_col(line, col,    p, q) {
	if (col > 1 && length(line) >= col && substr(line, col - 1, 1) == " " &&
	    substr(line, col, 1) != " " && substr(line, col - 2, 1) != " ")
		return col
	match(line, /^ *-/)
	q = RSTART + RLENGTH - 1
	p = match(substr(line, q + 1), /  +[^ ]/)
	if (!p)
		return 0
	return q + RSTART + RLENGTH - 1
}

# Emit the option lines opt[b, 1..n] of block b as .TP items
function emit_options(b,    i, n, line, col, c, counts, best, syn, desc) {
	n = nopt[b]
	split("", counts)
	for (i = 1; i <= n; i++) {
		c = desc_col(opt[b, i], 0)
		if (c)
			counts[c]++
	}
	best = 0
	for (c in counts)
		if (!best || counts[c] > counts[best] || (counts[c] == counts[best] && c + 0 < best + 0))
			best = c
	for (i = 1; i <= n; i++) {
		line = opt[b, i]
		col = desc_col(line, best + 0)
		if (col) {
			syn = trim(substr(line, 1, col - 1))
			desc = trim(substr(line, col))
		} else {
			syn = trim(line)
			desc = ""
		}
		if (optcont[b, i] != "")
			desc = trim(desc " " optcont[b, i])
		print ".TP"
		print "\\fB" esc(syn) "\\fR"
		if (desc != "")
			print esc(desc)
	}
}

# Emit block b's prose paragraphs and options
function emit_block(b,    i) {
	for (i = 1; i <= ntext[b]; i++) {
		if (text[b, i] == "")
			print ".PP"
		else
			print esc(trim(text[b, i]))
	}
	emit_options(b)
}

function start_block(heading) {
	nb++
	bhead[nb] = heading
	bcmd[nb] = cmd
	bkey[nb] = ""
	ntext[nb] = 0
	nopt[nb] = 0
	last_opt = 0
}

# The command just read: its heading, synopsis, description, blocks
function flush_cmd(    b, h) {
	if (cmd == "")
		return
	cmd_first = nb + 1
	start_block("")
	parse_cmd()
	print ".SS \"" esc(usage) "\""
	print ".\\\" command: " cmd
	for (b = cmd_first; b <= nb; b++) {
		h = bhead[b]
		if (h == "") {
			emit_block(b)
			continue
		}
		if (!(h in shared_block)) {
			shared_block[h] = b
			shared_order[++nshared] = h
		}
		if (bkey[shared_block[h]] == bkey[b]) {
			print ".PP"
			print "And the " esc(tolower(substr(h, 1, length(h) - 1))) \
				" (see \\fB" esc(toupper(substr(h, 1, length(h) - 1))) "\\fR below)."
			print ".\\\" shared: " h
		} else {
			print ".PP"
			print "\\fI" esc(h) "\\fR"
			emit_block(b)
		}
	}
	cmd = ""
}

# Whether line is an option line: indented at most 8 spaces, then '-'
function is_option(line) {
	return match(line, /^ +-/) && RLENGTH <= 9
}

# Parse the command's lines hl[1..nhl] into blocks
function parse_cmd(    i, line) {
	for (i = 1; i <= nhl; i++) {
		line = hl[i]
		if (usage == "" && line ~ /^usage: /) {
			usage = substr(line, 8)
			continue
		}
		# a heading: a line of its own ending in ':' over option lines
		if (line ~ /^[^ ].*:$/ && i < nhl && is_option(hl[i + 1])) {
			start_block(line)
			continue
		}
		bkey[nb] = bkey[nb] "\n" line
		if (is_option(line)) {
			nopt[nb]++
			opt[nb, nopt[nb]] = line
			optcont[nb, nopt[nb]] = ""
			last_opt = 1
		} else if (line ~ /^         +[^ ]/ && last_opt) {
			optcont[nb, nopt[nb]] = trim(optcont[nb, nopt[nb]] " " trim(line))
		} else if (line == "") {
			last_opt = 0
			if (ntext[nb] && text[nb, ntext[nb]] != "" && nopt[nb] == 0)
				text[nb, ++ntext[nb]] = ""
		} else {
			last_opt = 0
			text[nb, ++ntext[nb]] = line
		}
	}
}

/^@@CMD / {
	flush_cmd()
	line = substr($0, 7)
	cmd = substr(line, 1, index(line, "\t") - 1)
	usage = ""
	nhl = 0
	next
}

cmd != "" { hl[++nhl] = $0 }

END {
	flush_cmd()
	for (i = 1; i <= nshared; i++) {
		h = shared_order[i]
		print ".SH \"" esc(toupper(substr(h, 1, length(h) - 1))) "\""
		print ".\\\" shared-section: " h
		print "Every command above that names this section takes these options."
		emit_options(shared_block[h])
	}
}
