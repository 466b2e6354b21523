// A Node.js workload for jitsym's tests and demos: a few hot functions that
// V8 compiles with each of its tiers (interpreted "~", baseline "^",
// optimised "*"), called through each other so stacks run JIT -> JIT ->
// builtins -> native. Usage: node hot.js [SECONDS] (default 2).
'use strict';

function fib(n) {
	return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

class Point {
	constructor(x, y) { this.x = x; this.y = y; }
	norm() { return Math.sqrt(this.x * this.x + this.y * this.y); }
}

function sortPoints(count) {
	const pts = [];
	for (let i = 0; i < count; i++)
		pts.push(new Point((i * 7919) % 1000, (i * 104729) % 1000));
	pts.sort((a, b) => a.norm() - b.norm());
	return pts[0].x;
}

function buildString(n) {
	let s = '';
	for (let i = 0; i < n; i++)
		s += String.fromCharCode(97 + (i % 26));
	return s.length;
}

function rarelyCalled(n) {
	// runs only a few times, so it stays interpreted
	let t = 0;
	for (let i = 0; i < n; i++)
		t += i % 3;
	return t;
}

function work(round) {
	let t = fib(18) + sortPoints(2000) + buildString(5000);
	if (round % 50 === 0)
		t += rarelyCalled(100000);
	return t;
}

const seconds = Number(process.argv[2] || 2);
const end = Date.now() + seconds * 1000;
let total = 0, round = 0;
while (Date.now() < end)
	total += work(round++);
process.stderr.write(`hot.js: ${round} rounds, ${total}\n`);
