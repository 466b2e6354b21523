#!/usr/bin/env python3
"""speedscope-load.py: open a profile in the real speedscope web app (the
static build in the `speedscope` npm package) in headless Chromium, offline,
and report what the app made of it. tests/live/t-timeline.sh runs it on what
"jitsym timeline --format speedscope" writes.

Usage:
  speedscope-load.py --app DIR [--chromium PATH] [--timeout S] [--settle S]
                     [--screenshot OUT.png] [--verbose] PROFILE.json

DIR is speedscope's static app folder, the one holding index.html:
node_modules/speedscope/dist/release after "npm install speedscope".

A local HTTP server on 127.0.0.1 (a free port) serves the app and the
profile; the app is opened at index.html#profileURL=<the profile's URL>, so
speedscope fetches and imports the file itself, as speedscope.app does with
#profileURL=. Chromium resolves no host but 127.0.0.1: the run is offline.

The numbers are read from the app's own state after the import: the script
finds speedscope's Application component in the Preact component tree (from
the `__k` vnode that Preact keeps on the element it rendered into) and reads
its `profileGroup` prop, the value every view draws from. Per imported
profile: `name` (getName()), `samples` (the length of its sample list),
`weights_sum` (the sum of its weights), `total_weight` (getTotalWeight()),
`unit` (getWeightUnit()) and `frames`.

`samples` is not the file's sample count: speedscope's builder
(StackListProfileBuilder.appendSampleWithWeight) drops samples of weight 0
and merges a sample into the one before it when both have the same stack,
adding up their weights. So compare `weights_sum` with the file's weights
(a profile of sample counts, weight 1 each: its number of samples).

Prints one JSON object on stdout:
  {"loaded": bool, "status": ..., "console_errors": [...], "profiles":
   [{"name", "samples", "weights_sum", "total_weight", "unit", "frames"}],
   "app_version": "v1.25.0", "importer": ..., "title": ..., "seconds": ...}
"loaded" means: imported, the profile group is in the app's state, and the
views drew (painted pixels on the 2D canvases, a sized WebGL canvas).

Exit status: 0 when loaded with no console error; 1 otherwise; 2 on a setup
problem (no Chromium, no app folder, no profile file, the browser did not
start, or an app whose state this script cannot find: status
app-state-unreadable, another speedscope build?).

speedscope reports a failed import not as a console error but with
console.log("Failed to load format", err) and its "Something went wrong"
screen (status import-failed, with import_error), or with alert()
("Unrecognized format!": status rejected, with dialogs); both give loaded
false and exit 1.

Python 3 standard library only. Chromium is driven through the DevTools
protocol over --remote-debugging-pipe (file descriptors 3 and 4), so it
opens no debugging port.
"""

import argparse
import base64
import functools
import http.server
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

PROFILE_ROUTE = '/__speedscope_load__/'


class SetupError(Exception):
    pass


# ---------------------------------------------------------------------------
# Local web server: the app folder plus the profile under PROFILE_ROUTE.
# ---------------------------------------------------------------------------

class AppHandler(http.server.SimpleHTTPRequestHandler):
    extensions_map = dict(http.server.SimpleHTTPRequestHandler.extensions_map)
    extensions_map.update({
        '.js': 'text/javascript', '.mjs': 'text/javascript',
        '.css': 'text/css', '.wasm': 'application/wasm',
        '.json': 'application/json', '.woff2': 'font/woff2',
        '.txt': 'text/plain',
    })

    def __init__(self, *a, profile_file=None, profile_name=None, hits=None, **kw):
        self.profile_file = profile_file
        self.profile_name = profile_name
        self.hits = hits
        super().__init__(*a, **kw)

    def log_message(self, *args):
        pass

    def end_headers(self):
        self.send_header('Cache-Control', 'no-store')
        super().end_headers()

    def send_response(self, code, message=None):
        self.hits.append((code, self.path))
        super().send_response(code, message)

    def do_GET(self):
        if urllib.parse.urlsplit(self.path).path == PROFILE_ROUTE + self.profile_name:
            try:
                with open(self.profile_file, 'rb') as f:
                    body = f.read()
            except OSError:
                self.send_error(404)
                return
            self.send_response(200)
            self.send_header('Content-Type', 'application/octet-stream')
            self.send_header('Content-Length', str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()


def start_server(app_dir, profile_file, profile_name):
    hits = []
    handler = functools.partial(AppHandler, directory=app_dir,
                                profile_file=profile_file,
                                profile_name=profile_name, hits=hits)
    srv = http.server.ThreadingHTTPServer(('127.0.0.1', 0), handler)
    srv.daemon_threads = True
    threading.Thread(target=srv.serve_forever, name='http', daemon=True).start()
    return srv, hits


# ---------------------------------------------------------------------------
# Chromium over the DevTools pipe.
# ---------------------------------------------------------------------------

def pick_chromium(explicit):
    names = [explicit] if explicit else [
        '/usr/bin/chromium', shutil.which('chromium'),
        shutil.which('chromium-browser'), shutil.which('google-chrome')]
    for n in names:
        if n and os.path.isfile(n) and os.access(n, os.X_OK):
            return n
    return None


class Browser:
    """A headless Chromium child with a DevTools connection on fds 3/4.

    Messages are NUL-terminated JSON.  A reader thread files replies by id
    and passes events to the listeners (called on the reader thread)."""

    def __init__(self, binary, width, height):
        self.tmp = tempfile.mkdtemp(prefix='speedscope-load-')
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()
        flags = [
            '--headless=new', '--remote-debugging-pipe',
            '--user-data-dir=%s/user-data' % self.tmp,
            '--no-first-run', '--no-default-browser-check',
            '--disable-extensions', '--disable-sync', '--mute-audio',
            '--disable-background-networking', '--disable-component-update',
            '--disable-default-apps', '--disable-dev-shm-usage',
            '--disable-crash-reporter', '--disable-breakpad',
            '--hide-scrollbars', '--lang=en-US',
            # speedscope draws with WebGL: use the software renderer.
            '--use-angle=swiftshader', '--enable-unsafe-swiftshader',
            # Offline: nothing but the loopback server resolves.
            '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1',
            '--window-size=%d,%d' % (width, height),
        ]
        if os.geteuid() == 0:
            flags.append('--no-sandbox')  # Chromium refuses to run as root otherwise

        def place_pipe_fds():
            # Runs in the child before exec: put our pipe ends on fds 3 and 4
            # (first moved above 4 so that neither overwrites the other).
            hi_r = os.dup(to_chrome_r)
            hi_w = os.dup(from_chrome_w)
            while hi_r <= 4:
                hi_r = os.dup(hi_r)
            while hi_w <= 4:
                hi_w = os.dup(hi_w)
            os.dup2(hi_r, 3)
            os.dup2(hi_w, 4)

        self.log = open(os.path.join(self.tmp, 'chromium.log'), 'wb')
        try:
            self.proc = subprocess.Popen(
                [binary] + flags + ['about:blank'], stdin=subprocess.DEVNULL,
                stdout=self.log, stderr=subprocess.STDOUT, close_fds=False,
                preexec_fn=place_pipe_fds, start_new_session=True)
        finally:
            os.close(to_chrome_r)
            os.close(from_chrome_w)
        self._ids = 0
        self._wlock = threading.Lock()
        self._replies = {}
        self._waiters = {}
        self._cv = threading.Condition()
        self.gone = False
        self.listeners = []
        threading.Thread(target=self._read_loop, name='cdp', daemon=True).start()

    def _read_loop(self):
        pending = b''
        while True:
            try:
                data = os.read(self._from_chrome, 65536)
            except OSError:
                data = b''
            if not data:
                break
            pending += data
            *messages, pending = pending.split(b'\0')
            for raw in messages:
                try:
                    msg = json.loads(raw)
                except ValueError:
                    continue
                if 'id' in msg:
                    with self._cv:
                        self._replies[msg['id']] = msg
                        self._cv.notify_all()
                else:
                    for fn in list(self.listeners):
                        try:
                            fn(msg.get('method'), msg.get('params') or {},
                               msg.get('sessionId'))
                        except Exception:  # a listener must not kill the reader
                            pass
        with self._cv:
            self.gone = True
            self._cv.notify_all()

    def post(self, method, params=None, session=None):
        """Send a command, return its id without waiting."""
        with self._wlock:
            self._ids += 1
            mid = self._ids
            msg = {'id': mid, 'method': method, 'params': params or {}}
            if session:
                msg['sessionId'] = session
            buf = json.dumps(msg).encode() + b'\0'
            while buf:
                buf = buf[os.write(self._to_chrome, buf):]
        return mid

    def call(self, method, params=None, session=None, timeout=30.0):
        mid = self.post(method, params, session)
        end = time.monotonic() + timeout
        with self._cv:
            while mid not in self._replies:
                if self.gone:
                    raise ConnectionError('Chromium closed the DevTools pipe')
                rest = end - time.monotonic()
                if rest <= 0:
                    raise TimeoutError('%s: no reply in %.0fs' % (method, timeout))
                self._cv.wait(rest)
            reply = self._replies.pop(mid)
        if 'error' in reply:
            raise RuntimeError('%s: %s' % (method, reply['error'].get('message')))
        return reply.get('result') or {}

    def close(self):
        if not self.gone:
            try:
                self.call('Browser.close', timeout=5)
            except Exception:
                pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        # Chromium leads its own process group: take every helper with it.
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        for fd in (self._to_chrome, self._from_chrome):
            try:
                os.close(fd)
            except OSError:
                pass
        self.log.close()

    def log_tail(self, n=1500):
        try:
            with open(os.path.join(self.tmp, 'chromium.log'), 'rb') as f:
                return f.read()[-n:].decode('utf-8', 'replace')
        except OSError:
            return ''

    def cleanup(self):
        shutil.rmtree(self.tmp, ignore_errors=True)


# ---------------------------------------------------------------------------
# JavaScript run in the page.
# ---------------------------------------------------------------------------

# Locate speedscope's Application component: walk Preact's vnode tree from the
# render root to the first component whose props hold both `profileGroup` and
# `setProfileGroup`.  Preact 10 keeps the root vnode as `__k` on the element
# it rendered into (speedscope: render(..., document.body,
# document.body.lastElementChild), so on that child) and each vnode's
# rendered children in its `__k` too.
FIND_APP_JS = r"""
function __ssFindApp() {
  const todo = [];
  for (const el of [document.body, ...document.querySelectorAll('body *')]) {
    if (el && el.__k && typeof el.__k === 'object') todo.push(el.__k);
  }
  const seen = new Set();
  while (todo.length) {
    const v = todo.pop();
    if (!v || typeof v !== 'object' || seen.has(v)) continue;
    seen.add(v);
    const p = v.props;
    if (typeof v.type === 'function' && p && 'profileGroup' in p &&
        'setProfileGroup' in p) return p;
    if (Array.isArray(v.__k)) for (let i = v.__k.length - 1; i >= 0; i--) todo.push(v.__k[i]);
  }
  return null;
}
"""

STATE_JS = FIND_APP_JS + r"""
(() => {
  const s = {ready: document.readyState, title: document.title};
  try {
    const app = __ssFindApp();
    s.app_found = !!app;
    if (app) {
      s.loading = !!app.loading;
      s.error = !!app.error;
      s.has_group = app.profileGroup != null;
      s.gl_canvas = app.glCanvas != null;
    }
  } catch (e) { s.probe_error = String(e); }
  return s;
})()
"""

# After two animation frames (so the views have drawn), read the imported
# profile group and what is on screen.
DETAILS_JS = FIND_APP_JS + r"""
(async () => {
  await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
  const out = {title: document.title};
  const app = __ssFindApp();
  const g = app && app.profileGroup;
  if (!g) return out;
  out.group_name = g.name;
  out.active_profile_index = g.indexToView;
  out.profiles = g.profiles.map((entry) => {
    const p = entry.profile;
    const r = {name: p.getName()};
    try {
      const w = Array.isArray(p.weights) ? p.weights : null;
      r.samples = Array.isArray(p.samples) ? p.samples.length : null;
      r.total_weight = p.getTotalWeight();
      r.weights_sum = w ? w.reduce((a, b) => a + b, 0) : null;
      r.unit = p.getWeightUnit();
      r.total_formatted = p.formatValue(p.getTotalWeight());
      let frames = 0;
      for (const _ of p.frames) frames++;
      r.frames = frames;
    } catch (e) { r.read_error = String(e); }
    return r;
  });
  // Evidence that something was drawn: the 2D overlay canvases (frame labels,
  // time axis) have painted pixels, and the shared WebGL canvas has a size.
  let painted = 0, canvases = 0;
  for (const c of document.querySelectorAll('canvas')) {
    canvases++;
    if (!c.width || !c.height) continue;
    let ctx = null;
    try { ctx = c.getContext('2d'); } catch (e) {}
    if (!ctx) continue;  // the WebGL canvas
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    for (let i = 3; i < d.length; i += 4 * 7) if (d[i]) painted++;
  }
  out.canvases = canvases;
  out.painted_2d_pixels_sampled = painted;
  out.gl_canvas_size = app.glCanvas ? [app.glCanvas.width, app.glCanvas.height] : null;
  out.toolbar_text = (document.body.innerText || '').split('\n').map(x => x.trim())
                     .filter(Boolean).slice(0, 6).join(' | ');
  return out;
})()
"""


def evaluate(br, session, expr, timeout=15.0, await_promise=False):
    res = br.call('Runtime.evaluate',
                  {'expression': expr, 'returnByValue': True,
                   'awaitPromise': await_promise},
                  session=session, timeout=timeout)
    if 'exceptionDetails' in res:
        d = res['exceptionDetails']
        raise RuntimeError('page script failed: %s' % (
            (d.get('exception') or {}).get('description') or d.get('text')))
    return (res.get('result') or {}).get('value')


def remote_text(args):
    out = []
    for a in args or []:
        if 'value' in a:
            out.append(a['value'] if isinstance(a['value'], str) else json.dumps(a['value']))
        else:
            out.append(a.get('description') or a.get('unserializableValue')
                       or '<%s>' % a.get('type'))
    return ' '.join(out)


class PageLog:
    """Console output, exceptions, log entries and dialogs of one page."""

    def __init__(self, br):
        self.br = br
        self.session = None
        self.lock = threading.Lock()
        self.errors = []
        self.warnings = []
        self.logs = []
        self.dialogs = []
        self.crashed = False

    def __call__(self, method, params, sid):
        if sid != self.session:
            return
        with self.lock:
            if method == 'Runtime.consoleAPICalled':
                kind, text = params.get('type'), remote_text(params.get('args'))
                if kind in ('error', 'assert'):
                    self.errors.append('console.%s: %s' % (kind, text[:2000]))
                elif kind == 'warning':
                    self.warnings.append(text[:500])
                else:
                    self.logs.append(text[:2000])
            elif method == 'Runtime.exceptionThrown':
                d = params.get('exceptionDetails') or {}
                text = (d.get('exception') or {}).get('description') or d.get('text')
                self.errors.append('uncaught exception: %s' % str(text)[:2000])
            elif method == 'Log.entryAdded':
                e = params.get('entry') or {}
                text = '%s: %s%s' % (e.get('source'), e.get('text'),
                                     ' (%s)' % e['url'] if e.get('url') else '')
                if e.get('level') == 'error':
                    self.errors.append(text[:2000])
                elif e.get('level') == 'warning':
                    self.warnings.append(text[:500])
            elif method == 'Page.javascriptDialogOpening':
                self.dialogs.append('%s: %s' % (params.get('type'), params.get('message')))
                # Answer it at once (from the reader thread, without waiting):
                # an open alert() would block every later evaluation.
                self.br.post('Page.handleJavaScriptDialog', {'accept': True},
                             session=self.session)
            elif method in ('Inspector.targetCrashed', 'Target.targetCrashed'):
                self.crashed = True

    def snapshot(self):
        with self.lock:
            uniq = list(dict.fromkeys(self.errors))
            return uniq, list(self.warnings), list(self.logs), list(self.dialogs)


# ---------------------------------------------------------------------------

def setup_failure(msg):
    print(json.dumps({'loaded': False, 'setup_error': msg}, indent=2))
    print('speedscope-load: ' + msg, file=sys.stderr)
    return 2


def run(args):
    app_dir = os.path.realpath(args.app)
    if not os.path.isfile(os.path.join(app_dir, 'index.html')):
        raise SetupError('no speedscope app in %s (no index.html)' % app_dir)
    profile = os.path.realpath(args.profile)
    if not os.path.isfile(profile):
        raise SetupError('no such profile file: %s' % args.profile)
    chromium = pick_chromium(args.chromium)
    if not chromium:
        raise SetupError('Chromium not found%s' % (
            ' at ' + args.chromium if args.chromium else ' (try --chromium PATH)'))

    # Keep the file's own name (speedscope picks an importer partly by name,
    # e.g. *.speedscope.json), made URL-safe.
    name = ''.join(c if c.isalnum() or c in '._-' else '_'
                   for c in os.path.basename(profile)) or 'profile.json'

    def say(msg):
        if args.verbose:
            print('speedscope-load: %s' % msg, file=sys.stderr, flush=True)

    result = {'loaded': False, 'console_errors': [], 'profiles': [], 'title': None}
    t0 = time.monotonic()
    br = srv = None
    try:
        # Chromium first, while this process has no other thread: it is
        # started with a preexec_fn, which a fork beside running threads
        # makes unsafe (the HTTP server's and the DevTools reader's).
        try:
            br = Browser(chromium, args.width, args.height)
        except OSError as e:
            raise SetupError('cannot start %s: %s' % (chromium, e))
        srv, hits = start_server(app_dir, profile, name)
        origin = 'http://127.0.0.1:%d' % srv.server_address[1]
        profile_url = origin + PROFILE_ROUTE + name
        page_url = '%s/index.html#profileURL=%s' % (
            origin, urllib.parse.quote(profile_url, safe=''))
        pl = PageLog(br)
        br.listeners.append(pl)
        try:
            target = br.call('Target.createTarget', {'url': 'about:blank'},
                             timeout=args.timeout)['targetId']
        except (ConnectionError, TimeoutError) as e:
            raise SetupError('Chromium did not start (%s): %s' % (e, br.log_tail(800)))
        pl.session = br.call('Target.attachToTarget',
                             {'targetId': target, 'flatten': True})['sessionId']
        for domain in ('Runtime', 'Log', 'Page', 'Inspector'):
            br.call(domain + '.enable', session=pl.session)
        br.call('Emulation.setDeviceMetricsOverride',
                {'width': args.width, 'height': args.height,
                 'deviceScaleFactor': 1, 'mobile': False}, session=pl.session)
        say('opening ' + page_url)
        br.call('Page.navigate', {'url': page_url}, session=pl.session)

        status, state = 'timeout', {}
        unreadable_since = None
        end = time.monotonic() + args.timeout
        while time.monotonic() < end:
            time.sleep(0.2)
            if br.gone:
                status = 'browser-exited'
                break
            if pl.crashed:
                status = 'page-crashed'
                break
            try:
                state = evaluate(br, pl.session, STATE_JS, timeout=10) or {}
            except (RuntimeError, TimeoutError) as e:
                state = {'probe_error': str(e)}
                continue
            if not state.get('app_found'):
                # speedscope sets the title to "<name> - speedscope" just
                # before it stores the imported group.  If that happened and
                # the component is still not found, this speedscope build is
                # laid out differently from what FIND_APP_JS knows.
                if (state.get('title') or '').endswith(' - speedscope'):
                    unreadable_since = unreadable_since or time.monotonic()
                    if time.monotonic() - unreadable_since > 5:
                        status = 'app-state-unreadable'
                        break
                continue
            if state.get('error'):
                status = 'import-failed'  # speedscope shows its error screen
                break
            if state.get('has_group') and not state.get('loading'):
                status = 'loaded'
                break
            if not state.get('loading') and pl.snapshot()[3]:
                status = 'rejected'  # e.g. alert("Unrecognized format! ...")
                break
        say('%s after %.1fs' % (status, time.monotonic() - t0))

        # Let the views draw and late errors arrive, then read the app.
        time.sleep(args.settle)
        details = {}
        if status == 'loaded':
            try:
                details = evaluate(br, pl.session, DETAILS_JS, timeout=20,
                                   await_promise=True) or {}
            except (RuntimeError, TimeoutError) as e:
                details = {'read_error': str(e)}
        else:
            try:
                details = {'title': evaluate(br, pl.session, 'document.title', timeout=5),
                           'text_shown': evaluate(
                               br, pl.session,
                               '(document.body.innerText||"").trim().replace(/\\s+/g," ").slice(0,400)',
                               timeout=5)}
            except (RuntimeError, TimeoutError, ConnectionError):
                pass

        if args.screenshot:
            try:
                shot = br.call('Page.captureScreenshot', {'format': 'png'},
                               session=pl.session, timeout=30)
                with open(args.screenshot, 'wb') as f:
                    f.write(base64.b64decode(shot['data']))
                result['screenshot'] = args.screenshot
            except Exception as e:  # report, keep going
                result['screenshot_error'] = str(e)

        errors, warnings, logs, dialogs = pl.snapshot()
        drawn = bool(details.get('painted_2d_pixels_sampled')) and bool(
            (details.get('gl_canvas_size') or [0])[0])
        result['loaded'] = status == 'loaded' and bool(details.get('profiles')) and drawn
        result['status'] = status if status != 'loaded' or result['loaded'] else 'loaded-not-drawn'
        result['console_errors'] = errors
        result['profiles'] = details.get('profiles') or []
        result['title'] = details.get('title', state.get('title'))
        for k in ('group_name', 'active_profile_index', 'toolbar_text',
                  'text_shown', 'canvases', 'painted_2d_pixels_sampled',
                  'gl_canvas_size', 'read_error'):
            if k in details:
                result[k] = details[k]
        # What speedscope itself logged about the import (console.log lines).
        for line in logs:
            if line.startswith('speedscope v'):
                result['app_version'] = line.split(' ', 1)[1]
            elif line.startswith('Importing as '):
                result['importer'] = line[len('Importing as '):]
            elif line.startswith('Failed to load format'):
                # The thrown error; keep its message, not the stack.
                result['import_error'] = line[len('Failed to load format'):].strip().split('\n')[0]
        if dialogs:
            result['dialogs'] = dialogs
        if warnings:
            result['console_warnings'] = warnings[:20]
        bad = [p for code, p in hits if code >= 400]
        if bad:
            result['failed_requests'] = bad
        if status == 'browser-exited':
            result['chromium_log_tail'] = br.log_tail()
    finally:
        result['seconds'] = round(time.monotonic() - t0, 2)
        if br is not None:
            br.close()
            br.cleanup()
        if srv is not None:
            srv.shutdown()
            srv.server_close()

    print(json.dumps(result, indent=2))
    if result.get('status') == 'app-state-unreadable':
        print('speedscope-load: the page took the profile but its state could '
              'not be read: unsupported speedscope build?', file=sys.stderr)
        return 2
    return 0 if result['loaded'] and not result['console_errors'] else 1


def main():
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    ap = argparse.ArgumentParser(
        description='Load a speedscope profile into the speedscope app in '
                    'headless Chromium (offline) and report what it loaded.')
    ap.add_argument('profile', metavar='PROFILE.json')
    ap.add_argument('--app', required=True, metavar='DIR',
                    help="speedscope's static app folder (with index.html), "
                         'e.g. node_modules/speedscope/dist/release')
    ap.add_argument('--chromium', metavar='PATH',
                    help='Chromium binary (default /usr/bin/chromium, then PATH)')
    ap.add_argument('--timeout', type=float, default=60.0, metavar='S',
                    help='seconds to wait for the profile to load (default 60)')
    ap.add_argument('--screenshot', metavar='OUT.png', help='save a screenshot')
    ap.add_argument('--settle', type=float, default=1.0, metavar='S',
                    help='seconds to wait after loading, for drawing and late '
                         'console errors (default 1)')
    ap.add_argument('--width', type=int, default=1280)
    ap.add_argument('--height', type=int, default=800)
    ap.add_argument('--verbose', action='store_true', help='progress on stderr')
    args = ap.parse_args()
    try:
        return run(args)
    except SetupError as e:
        return setup_failure(str(e))


if __name__ == '__main__':
    sys.exit(main())
