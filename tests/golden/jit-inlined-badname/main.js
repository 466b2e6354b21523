'use strict';
const { sq, mix } = require('./mod.js');
function hot(n) {
	let s = 0;
	for (let i = 0; i < n; i++) s = mix(s, sq(i) + i);
	return s;
}
const end = Date.now() + 1000 * Number(process.argv[2]);
let t = 0;
while (Date.now() < end) t += hot(100000);
console.log(t & 1);
