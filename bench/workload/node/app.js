// bench/workload/node/app.js: a Node.js workload for jitsym's benchmark
// with many distinct JIT functions, like a real application.
//
//   node --perf-prof --perf-basic-prof --interpreted-frames-native-stack \
//        app.js SECONDS [FUNCTIONS] [FILES] [SEED]
//
// It writes FILES (default 200) generated source files into ./gen/ (the
// working directory: the recording's directory) holding FUNCTIONS (default
// 20000) small functions with distinct names (parseOrder17, renderCart4711,
// ...), loads them as scripts (so V8 knows their file, line and column),
// then calls them for SECONDS seconds.
//
// The functions form a layered call graph: layer 0 has a few roots, each
// deeper layer is wider, and every function calls one or two functions of
// the next layer chosen by its argument, so the walk takes a different path
// every time and reaches every function. Each function does a little work
// of its own (arithmetic, strings, objects and sort callbacks, Maps,
// closures, array builtins), so samples fall in all of them and in V8
// builtins called from them. Functions near the roots run often and V8
// optimises them (JS:*), deeper ones stay at baseline (JS:^) or interpreted
// (JS:~): every tier, and tens of thousands of code loads in the jitdump.
// The generated source depends only on FUNCTIONS, FILES and SEED (default
// 1), so recordings of different lengths run the same program.
'use strict';
const fs = require('fs');
const path = require('path');
const vm = require('vm');

const seconds = Number(process.argv[2] || 2);
const nfunc = Math.max(64, Number(process.argv[3] || 20000) | 0);
const nfiles = Math.max(1, Number(process.argv[4] || 200) | 0);
let seed = Number(process.argv[5] || 1) >>> 0;

function rand() {	// mulberry32: deterministic for a seed
	seed = (seed + 0x6d2b79f5) >>> 0;
	let t = seed;
	t = Math.imul(t ^ (t >>> 15), t | 1);
	t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
	return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (a) => a[Math.floor(rand() * a.length)];

// Layers: 12 of them, each about 1.45 times wider than the one above.
const DEPTH = 12;
const weights = [];
for (let k = 0; k < DEPTH; k++)
	weights.push(Math.pow(1.45, k));
const wsum = weights.reduce((a, b) => a + b, 0);
const layers = [];
let made = 0;
for (let k = 0; k < DEPTH; k++) {
	const n = k === DEPTH - 1 ? nfunc - made : Math.max(4, Math.round(nfunc * weights[k] / wsum));
	const names = [];
	for (let i = 0; i < n; i++)
		names.push(null);
	layers.push(names);
	made += n;
}

const verbs = ['parse', 'render', 'load', 'store', 'compute', 'validate', 'format',
	'merge', 'split', 'encode', 'decode', 'resolve', 'apply', 'build', 'update',
	'handle', 'dispatch', 'collect', 'filter', 'reduce', 'emit', 'scan', 'fetch',
	'patch', 'normalize', 'serialize', 'hydrate', 'index', 'match', 'route'];
const nouns = ['Order', 'Cart', 'User', 'Session', 'Token', 'Query', 'Row', 'Page',
	'Header', 'Invoice', 'Item', 'Price', 'Event', 'Config', 'Route', 'Template',
	'Node', 'Edge', 'Graph', 'Buffer', 'Record', 'Field', 'Schema', 'Column',
	'Metric', 'Span', 'Trace', 'Cache', 'Entry', 'Account'];
let serial = 0;
for (const layer of layers)
	for (let i = 0; i < layer.length; i++)
		layer[i] = pick(verbs) + pick(nouns) + (serial++);

// Own work of a function: one of several kinds, sized by W.
const bodies = [
	(w) => `let a = x | 0;\n\tfor (let i = 0; i < ${w * 4}; i++)\n\t\ta = (Math.imul(a, 31) + i) | 0;\n\tx = (x + a) >>> 0;`,
	(w) => `let s = '';\n\tfor (let i = 0; i < ${w}; i++)\n\t\ts += String.fromCharCode(97 + ((x + i) % 26));\n\tx = (x + s.length + s.charCodeAt(s.length >> 1)) >>> 0;`,
	(w) => `const o = [];\n\tfor (let i = 0; i < ${w}; i++)\n\t\to.push({ k: (x * (i + 7)) % 97, v: i });\n\to.sort((p, q) => p.k - q.k);\n\tx = (x + o[0].v) >>> 0;`,
	(w) => `const m = new Map();\n\tfor (let i = 0; i < ${w}; i++)\n\t\tm.set((x + i * 13) % 31, i);\n\tfor (const [k, v] of m)\n\t\tx = (x + k * v) >>> 0;`,
	(w) => `const f = (y) => (y * 17 + ${w}) >>> 0;\n\tfor (let i = 0; i < ${w}; i++)\n\t\tx = f(x ^ i);`,
	(w) => `const arr = new Array(${w}).fill(x);\n\tx = arr.map((v, i) => v + i).filter((v) => v & 1).reduce((p, v) => (p + v) >>> 0, x);`,
	(w) => `const parts = [];\n\tfor (let i = 0; i < ${Math.max(2, w >> 2)}; i++)\n\t\tparts.push('' + ((x >>> i) & 255));\n\tx = (x + parts.join('.').length + JSON.stringify(parts).length) >>> 0;`,
];

// Source: function K_I calls one of its callees in the next layer, two
// when bit 3 of its argument is set.
const files = [];
for (let f = 0; f < nfiles; f++)
	files.push([]);
for (let k = 0; k < DEPTH; k++) {
	const layer = layers[k], next = layers[k + 1];
	for (let i = 0; i < layer.length; i++) {
		const w = 4 + Math.floor(rand() * (k === DEPTH - 1 ? 40 : 12));
		let src = `function ${layer[i]}(x) {\n\t${pick(bodies)(w)}\n`;
		if (next) {
			const step = Math.ceil(next.length / layer.length);
			const fan = step + 1 + Math.floor(rand() * 2);
			const callees = [];
			for (let j = 0; j < fan; j++)
				callees.push(next[(i * step + j) % next.length]);
			src += `\tconst y = (Math.imul(x, 2654435761) >>> 7);\n`;
			src += `\tswitch (y % ${fan}) {\n`;
			callees.forEach((c, j) => { src += `\tcase ${j}: x = (x + ${c}(y)) >>> 0; break;\n`; });
			src += `\t}\n`;
			src += `\tif ((y & 15) === 3)\n\t\tx = (x + ${callees[(i + 1) % fan]}(y >>> 3)) >>> 0;\n`;
		}
		src += `\treturn x;\n}\n`;
		files[Math.floor(rand() * nfiles)].push(src);
	}
}

const gen = path.join(process.cwd(), 'gen');
fs.mkdirSync(gen, { recursive: true });
files.forEach((fns, f) => {
	const name = path.join(gen, `mod${String(f).padStart(3, '0')}.js`);
	const src = `// generated by bench/workload/node/app.js\n${fns.join('\n')}`;
	fs.writeFileSync(name, src);
	vm.runInThisContext(src, { filename: name });
});

const roots = layers[0].map((n) => globalThis[n]);
const end = Date.now() + seconds * 1000;
let total = 0, calls = 0;
while (Date.now() < end) {
	for (let r = 0; r < 64; r++, calls++) {
		const x = Math.imul(calls + 1, 0x9e3779b1) >>> 0;
		total = (total + roots[calls % roots.length](x)) >>> 0;
	}
}
console.log(`app.js: ${seconds} s, ${nfunc} functions in ${nfiles} files, ${calls} root calls, result ${total}`);
