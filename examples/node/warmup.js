// A Node.js workload that warms up, for "jitsym tiers": one task repeated
// for a fixed number of rounds, each round passing a value through the same
// pipeline of distinct small functions ("stages", straight-line integer
// code: no loops to OSR out of, no property loads). Every stage starts in
// Ignition ("JS:~stage_N" with --interpreted-frames-native-stack, its time
// in bytecode handlers), then runs as Sparkplug code ("JS:^"), then as
// TurboFan code ("JS:*"; Maglev "JS:+" where V8 uses it), so the time
// spent interpreting falls round by round and ends at nothing.
//
// V8 tiers a function up by the bytecode it has run, not by the clock, so
// with synchronous compilation the rounds at which the stages change tier
// are the same in every run. tests/live/t-tiers-node.sh runs it as
//   node --perf-prof --interpreted-frames-native-stack \
//     --interrupt-budget-factor-for-feedback-allocation=6000 \
//     --no-concurrent-recompilation warmup.js 600000
// The budget factor (default 8: a function leaves Ignition after running
// its bytecode about 8 times) keeps the stages interpreted for their first
// few thousand rounds, as a program with many more functions would be, so
// the warm-up is not over before node's own startup is; the 600000
// rounds make the run long enough (~3 s of CPU) that node's startup (~0.1 s,
// more on a loaded machine) stays well inside its first tenth.
//
// Usage: node warmup.js [ROUNDS] [STAGES] [OPS] (defaults 200000, 64, 40).
'use strict';
const vm = require('vm');

const rounds = Number(process.argv[2] || 200000);
const nstages = Number(process.argv[3] || 64);
const nops = Number(process.argv[4] || 40);

// Distinct source text per stage: each is a function of its own to V8 (its
// own bytecode, feedback and tier), unlike closures of one function literal.
// The values stay small integers (Smis): no heap numbers, no allocation.
let src = '[\n';
for (let i = 0; i < nstages; i++) {
	src += `function stage_${i}(x) {\n\tlet s = (x ^ ${i}) & 0x3fffffff;\n`;
	for (let k = 0; k < nops; k++)
		src += `\ts = ((s & 0xffff) * ${31 + 2 * ((i + k) % 97)} + (s >> ${1 + k % 5}) + ${k ^ i}) & 0x3fffffff;\n`;
	src += '\treturn s;\n},\n';
}
src += ']';
const stages = vm.runInThisContext(src, { filename: 'warmup-stages.js' });

function round(r) {
	let x = r;
	for (let i = 0; i < stages.length; i++)
		x = stages[i](x);
	return x;
}

let total = 0;
for (let r = 0; r < rounds; r++)
	total = (total + round(r)) | 0;
process.stderr.write(`warmup.js: ${rounds} rounds of ${nstages} stages, ${total}\n`);
