(function () {
  'use strict';
  var doc = document, svg = doc.documentElement, charts = [], nAreas = 0, extra = '';
  var tip = doc.getElementById('tip'), overlay = true;

  function $(id) { return doc.getElementById(id); }
  function num(el, name) { return Number(el.getAttribute(name)); }
  function nums(el, name) {
    var s = el.getAttribute(name);
    return s ? s.split(' ').map(Number) : [];
  }
  function read(g) {
    var c = { g: g, x: num(g, 'data-x'), y: num(g, 'data-y'), w: num(g, 'data-w'),
              h: num(g, 'data-h'), n: num(g, 'data-n'), tot: nums(g, 'data-tot'),
              label: g.getAttribute('data-label'), areas: [], interp: null }, ip;
    Array.prototype.forEach.call(g.querySelectorAll('path.a'), function (p) {
      c.areas.push({ el: p, label: p.getAttribute('data-label'), n: nums(p, 'data-n'),
                     wt: nums(p, 'data-w'), lo: nums(p, 'data-lo'), hi: nums(p, 'data-hi') });
    });
    ip = g.querySelector('path.interp');
    if (ip)
      c.interp = nums(ip, 'data-p');
    nAreas += c.areas.length;
    return c;
  }
  function secs(i) { return (i * ts.iv).toFixed(ts.d); }
  function pct(v) { return v.toFixed(1) + '%'; }
  function plural(n, one) { return n + ' ' + one + (n === 1 ? '' : 's'); }

  /* the interval and the area under chart c's point (x, y) */
  function hit(c, x, y) {
    var i = Math.floor((x - c.x) / c.w * c.n), f = 100 * (c.y + c.h - y) / c.h, k, a;
    if (i < 0 || i >= c.n || f < 0 || f > 100)
      return null;
    for (k = 0; k < c.areas.length; k++) {
      a = c.areas[k];
      if (a.hi[i] > a.lo[i] && f >= a.lo[i] && f <= a.hi[i])
        return { c: c, a: a, i: i };
    }
    return { c: c, a: null, i: i };
  }
  function lines(h) {
    var c = h.c, i = h.i, a = h.a, out = [];
    out.push(c.label + ': ' + secs(i) + '\u2013' + secs(i + 1) + ' s');
    if (a) {
      out.push(a.label);
      out.push(plural(a.n[i], 'sample') + (ts.period ? ', period ' + a.wt[i] : '') +
               ': ' + pct(a.hi[i] - a.lo[i]) + ' of the interval\'s ' + c.tot[i]);
    } else {
      out.push(c.tot[i] ? 'between the areas' : 'no samples');
    }
    if (c.interp && c.tot[i])
      out.push('innermost code frame interpreted: ' + pct(c.interp[i]));
    return out;
  }
  function unmark() {
    Array.prototype.forEach.call(doc.querySelectorAll('.hl, .dim'), function (e) {
      e.classList.remove('hl');
      e.classList.remove('dim');
    });
  }
  function show(h, x, y) {
    var t = lines(h), texts = tip.querySelectorAll('text'), box = tip.querySelector('rect');
    var wmax = 0, k, bw, bh;
    for (k = 0; k < texts.length; k++) {
      texts[k].textContent = k < t.length ? t[k] : '';
      if (k < t.length)
        wmax = Math.max(wmax, texts[k].getComputedTextLength());
    }
    bw = wmax + 12;
    bh = t.length * 15 + 8;
    x += 14;
    y += 14;
    if (x + bw > ts.width - 4)
      x = Math.max(4, x - bw - 28);
    if (y + bh > ts.height - 4)
      y = Math.max(4, y - bh - 28);
    tip.setAttribute('transform', 'translate(' + x.toFixed(1) + ',' + y.toFixed(1) + ')');
    box.setAttribute('width', bw.toFixed(1));
    box.setAttribute('height', bh);
    tip.setAttribute('visibility', 'visible');
    unmark();
    if (h.a) {
      h.a.el.classList.add('hl');
      h.c.g.classList.add('dim');
    }
  }
  function hide() {
    tip.setAttribute('visibility', 'hidden');
    unmark();
  }
  /* a mouse event's point in the SVG's coordinates */
  function point(ev) {
    var p = svg.createSVGPoint(), m = svg.getScreenCTM();
    p.x = ev.clientX;
    p.y = ev.clientY;
    return m ? p.matrixTransform(m.inverse()) : p;
  }
  function bind(c) {
    c.g.addEventListener('mousemove', function (ev) {
      var p = point(ev), h = hit(c, p.x, p.y);
      c.last = h;
      if (h)
        show(h, p.x, p.y);
      else
        hide();
    });
    c.g.addEventListener('mouseleave', hide);
  }
  function setOverlay(on) {
    overlay = on;
    Array.prototype.forEach.call(doc.querySelectorAll('.interp'), function (e) {
      e.classList.toggle('hidden', !on);
    });
    if ($('overlay-key'))
      $('overlay-key').setAttribute('opacity', on ? '1' : '0.4');
  }

  function params() {
    var out = {};
    (location.hash || '').slice(1).split('&').forEach(function (kv) {
      var i = kv.indexOf('=');
      if (i > 0)
        out[kv.slice(0, i)] = kv.slice(i + 1);
    });
    return out;
  }
  /* hover as a mouse would: an event at the point, to what is drawn there */
  function hover(arg) {
    var v = arg.split(',').map(Number), c = charts[v[0]], i = v[1], a, k, best = -1;
    var p, m, el;
    if (!c)
      return 'nochart';
    if (!(i >= 0 && i < c.n))
      for (i = 0, k = 0; k < c.n; k++)
        if (c.tot[k] > c.tot[i])
          i = k;
    a = c.areas[v[2]];
    if (!a)
      c.areas.forEach(function (e) {
        if (e.hi[i] - e.lo[i] > best) {
          best = e.hi[i] - e.lo[i];
          a = e;
        }
      });
    if (!a)
      return 'none';
    p = svg.createSVGPoint();
    p.x = c.x + (i + 0.5) * c.w / c.n;
    p.y = c.y + c.h * (1 - (a.lo[i] + a.hi[i]) / 200);
    m = svg.getScreenCTM();
    if (m)
      p = p.matrixTransform(m);
    el = doc.elementFromPoint(p.x, p.y);
    if (!el)
      return 'offscreen';
    el.dispatchEvent(new MouseEvent('mousemove', { clientX: p.x, clientY: p.y,
                                                   bubbles: true, view: window }));
    return c.last && c.last.a ? 'area' : 'none';
  }
  function report() {
    $('status').textContent = 'charts=' + charts.length + ' areas=' + nAreas +
      ' errors=' + tsErrors + extra;
  }

  function init() {
    var p = params();
    Array.prototype.forEach.call(doc.querySelectorAll('g.chart'), function (g) {
      var c = read(g);
      charts.push(c);
      bind(c);
    });
    if ($('overlay-key'))
      $('overlay-key').addEventListener('click', function () { setOverlay(!overlay); });
    if (p.overlay === '0')
      setOverlay(false);
    if (p.hover !== undefined)
      extra += ' hover=' + hover(p.hover);
    tsReport = report;
    report();
  }
  init();
})();
