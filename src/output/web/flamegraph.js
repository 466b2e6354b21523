(function () {
  'use strict';
  var doc = document, frames = [], zoomed = null, term = null, extra = '';

  function $(id) { return doc.getElementById(id); }
  function cls(el, name, on) {
    if (on) el.classList.add(name); else el.classList.remove(name);
  }
  /* as the writer does: whole name, or cut with "..", or nothing */
  function label(name, w) {
    var n = Math.floor((w - 6) / fg.cw);
    if (n < 3) return '';
    return name.length <= n ? name : name.slice(0, n - 2) + '..';
  }
  function place(f, x, w) {
    f.rect.setAttribute('x', x.toFixed(2));
    f.rect.setAttribute('width', w.toFixed(2));
    f.text.setAttribute('x', (x + 3).toFixed(2));
    f.text.textContent = label(f.name, w);
  }
  function restore(f) {
    f.rect.setAttribute('x', f.x0);
    f.rect.setAttribute('width', f.w0);
    f.text.setAttribute('x', f.tx0);
    f.text.textContent = f.t0;
  }

  /* f spans the width; its callers stay, dimmed; all else hides */
  function zoom(f) {
    var inner = fg.width - 2 * fg.pad, k = f.n ? inner / f.n : 0, shown = 0;
    frames.forEach(function (e) {
      /* fg.down: 1 when callees are drawn below their callers */
      var anc = (f.y - e.y) * fg.down > 0 && e.s <= f.s && e.s + e.n >= f.s + f.n;
      var sub = (e.y - f.y) * fg.down >= 0 && e.s >= f.s && e.s + e.n <= f.s + f.n;
      cls(e.g, 'anc', anc);
      cls(e.g, 'hidden', !anc && !sub);
      if (anc)
        place(e, fg.pad, inner);
      else if (sub)
        place(e, fg.pad + (e.s - f.s) * k, e.n * k);
      if (anc || sub)
        shown++;
    });
    zoomed = f;
    cls($('unzoom'), 'hidden', false);
    return shown;
  }
  function unzoom() {
    frames.forEach(function (e) {
      cls(e.g, 'anc', false);
      cls(e.g, 'hidden', false);
      restore(e);
    });
    zoomed = null;
    cls($('unzoom'), 'hidden', true);
  }

  /* a regular expression, or the plain text when it is not one */
  function matcher(t) {
    var re;
    try {
      re = new RegExp(t);
    } catch (err) {
      return function (s) { return s.indexOf(t) >= 0; };
    }
    return function (s) { return re.test(s); };
  }
  /* highlight matching frames; the share of all samples under them */
  function search(t) {
    var test = matcher(t), spans = [], hits = 0, sum = 0, end = -1, pct;
    frames.forEach(function (e) {
      var hit = !e.root && test(e.name);
      cls(e.g, 'hit', hit);
      if (hit) {
        hits++;
        spans.push([e.s, e.s + e.n]);
      }
    });
    /* nested matches count once */
    spans.sort(function (a, b) { return a[0] - b[0] || b[1] - a[1]; });
    spans.forEach(function (sp) {
      if (sp[1] > end) {
        sum += sp[1] - Math.max(sp[0], end);
        end = sp[1];
      }
    });
    pct = fg.total ? 100 * sum / fg.total : 0;
    term = t;
    $('matched').textContent = 'Matched: ' + pct.toFixed(2) + '% (' + hits +
      (hits === 1 ? ' frame)' : ' frames)');
    cls($('clear'), 'hidden', false);
    return { pct: pct, hits: hits };
  }
  function unsearch() {
    frames.forEach(function (e) { cls(e.g, 'hit', false); });
    term = null;
    $('matched').textContent = '';
    cls($('clear'), 'hidden', true);
  }
  function ask() {
    var t = window.prompt('Search frames (regular expression):', term === null ? '' : term);
    if (t === null)
      return;
    if (t === '')
      unsearch();
    else
      search(t);
    keep();
  }

  /* the state in the URL fragment: #zoom=N&search=RE */
  function keep() {
    var p = [];
    if (zoomed)
      p.push('zoom=' + frames.indexOf(zoomed));
    if (term !== null)
      p.push('search=' + encodeURIComponent(term));
    try {
      history.replaceState(null, '', p.length ? '#' + p.join('&') :
        location.pathname + location.search);
    } catch (err) {
      /* some viewers have no history: the state is just not kept */
    }
  }
  function params() {
    var out = {};
    (location.hash || '').slice(1).split('&').forEach(function (kv) {
      var i = kv.indexOf('=');
      if (i <= 0)
        return;
      try {
        out[kv.slice(0, i)] = decodeURIComponent(kv.slice(i + 1));
      } catch (err) {
        /* a malformed escape: ignore the parameter */
      }
    });
    return out;
  }
  function report() {
    $('status').textContent = 'frames=' + frames.length + ' errors=' + fgErrors + extra;
  }

  function bind(f) {
    f.g.addEventListener('click', function () {
      zoom(f);
      keep();
    });
    f.g.addEventListener('mouseover', function () {
      $('details').textContent = f.name + ': ' + f.info;
    });
    f.g.addEventListener('mouseout', function () {
      $('details').textContent = ' ';
    });
  }
  function init() {
    var gs = doc.querySelectorAll('g.f'), i, g, r, t, lines, f, p, res;
    for (i = 0; i < gs.length; i++) {
      g = gs[i];
      r = g.querySelector('rect');
      t = g.querySelector('text');
      lines = g.querySelector('title').textContent.split('\n');
      f = {
        g: g, rect: r, text: t, name: lines[0], info: lines.slice(1).join(', '),
        s: +g.getAttribute('data-s'), n: +g.getAttribute('data-n'),
        y: +r.getAttribute('y'), root: g.classList.contains('root'),
        x0: r.getAttribute('x'), w0: r.getAttribute('width'),
        tx0: t.getAttribute('x'), t0: t.textContent
      };
      frames.push(f);
      bind(f);
    }
    $('unzoom').addEventListener('click', function () {
      unzoom();
      keep();
    });
    $('search').addEventListener('click', ask);
    $('clear').addEventListener('click', function () {
      unsearch();
      keep();
    });
    doc.addEventListener('keydown', function (e) {
      if ((e.ctrlKey || e.metaKey) && (e.key === 'f' || e.key === 'F')) {
        e.preventDefault();
        ask();
      } else if (e.key === 'Escape' && term !== null) {
        unsearch();
        keep();
      }
    });
    p = params();
    if (p.zoom !== undefined) {
      f = frames[+p.zoom];
      extra += f ? ' zoomed=' + p.zoom + ' visible=' + zoom(f) : ' zoomed=none';
    }
    if (p.search) {
      res = search(p.search);
      extra += ' matched=' + res.pct.toFixed(2) + '% hits=' + res.hits;
    }
    fgReport = report;
    report();
  }
  init();
})();
