#!/usr/bin/env node
// Keel anchor benchmark, Backbone side.
//
// Runs the workloads of Benchmarks/README.md ("Workloads") on Backbone.js
// 1.6.1 + Underscore 1.13.x under Node: all but those in WITHOUT_BACKBONE,
// which need features Backbone does not have (nested_merge: relations;
// sync_fetch: an HTTP stack; store_write_read and store_write_read_memory:
// a local store; the anchors of issue 33: a local store, relations, or a
// comparison with Foundation). This file contains no Backbone or Underscore
// code: both are loaded at run time from the directory
// named by $BACKBONE_DIR, which get-backbone.sh (next to this file) prepares:
//
//   BACKBONE_DIR/backbone.js
//   BACKBONE_DIR/node_modules/underscore/{underscore.js,package.json}
//
// Usage:
//   BACKBONE_DIR="$(Benchmarks/backbone/get-backbone.sh ...)" \
//     node --expose-gc Benchmarks/backbone/bench.js
//
// Environment:
//   BACKBONE_DIR   required; see above
//   REPS=n         timed repetitions per workload, each on fresh state; the
//                  median is reported (default 1)
//   WORKLOADS=a,b  run only these workloads (comma-separated names); a name
//                  in WITHOUT_BACKBONE is accepted and reported as not run
//   ISOLATE=1      run every workload in its own child Node process (same
//                  node flags), so no JIT feedback is shared between workloads
//
// Protocol per workload: setup (untimed) -> the whole body once on that state
// (warm-up, untimed, verified, discarded) -> for each repetition: fresh setup
// -> timed body -> verification after the clock stops. A garbage collection
// is forced between phases (via --expose-gc, or V8's flag API if the flag was
// not given).
//
// Output: one line "name ops_per_sec total_ms" per workload, then one JSON
// object; the workloads without a Backbone counterpart have no line, and the
// JSON lists them with the reason under "without_backbone". Every check value is compared with the expected value; the process
// exits with status 1 if any workload fails verification, 2 on usage errors.
'use strict';

const path = require('path');
const os = require('os');

// ---------------------------------------------------------------------------
// Configuration and library loading

function usageError(msg) {
  process.stderr.write('bench.js: ' + msg + '\n');
  process.exit(2);
}

const BACKBONE_DIR = process.env.BACKBONE_DIR;
if (!BACKBONE_DIR) usageError('BACKBONE_DIR is not set (run Benchmarks/backbone/get-backbone.sh)');

let Backbone, _;
try {
  Backbone = require(path.resolve(BACKBONE_DIR, 'backbone.js'));
  // Same resolution backbone.js itself uses for require('underscore'), so
  // this is the very same module instance.
  _ = require(path.resolve(BACKBONE_DIR, 'node_modules', 'underscore'));
} catch (e) {
  usageError('cannot load Backbone/Underscore from ' + BACKBONE_DIR + ': ' + e.message);
}

const REPS = parseInt(process.env.REPS || '1', 10);
if (!(REPS >= 1)) usageError('REPS must be a positive integer');
const ISOLATE = process.env.ISOLATE === '1';

// Forced GC: prefer --expose-gc; otherwise enable it through the V8 flag API.
let forceGc = null;
let gcMethod = 'none';
if (typeof global.gc === 'function') {
  forceGc = global.gc;
  gcMethod = 'expose-gc';
} else {
  try {
    require('v8').setFlagsFromString('--expose-gc');
    forceGc = require('vm').runInNewContext('gc');
    gcMethod = 'v8-setflags';
  } catch (e) {
    forceGc = null;
  }
}
function collect() {
  if (forceGc) forceGc();
}

function peakRssKb() {
  return process.resourceUsage().maxRSS; // kilobytes
}

// ---------------------------------------------------------------------------
// Shared helpers

// Park-Miller minimal standard generator. Products stay below 2^47, so IEEE
// doubles hold them exactly (the Swift side uses Int64).
function parkMiller(seed) {
  let state = seed;
  return () => (state = (state * 48271) % 2147483647);
}

// sum over positions i of (i + 1) * id_i, mod 2^32
function orderChecksum(models) {
  const MOD = 4294967296;
  let acc = 0;
  for (let i = 0; i < models.length; i++) acc = (acc + (i + 1) * models[i].id) % MOD;
  return acc;
}

// coll_remove's 20,000 steps: 'pop' where k % 10 == 0, 'shift' where k % 10 == 5, else
// the next of 16,000 distinct ids from 2000..97999 (a partial Fisher-Yates shuffle with
// the LCG seeded 42: for i < 16000, swap i with i + next() % (96000 - i)).
function removalPlan() {
  const ids = new Array(96000);
  for (let i = 0; i < 96000; i++) ids[i] = 2000 + i;
  const next = parkMiller(42);
  for (let i = 0; i < 16000; i++) {
    const j = i + next() % (96000 - i);
    const t = ids[i]; ids[i] = ids[j]; ids[j] = t;
  }
  const plan = new Array(20000);
  let v = 0;
  for (let k = 0; k < 20000; k++) plan[k] = k % 10 === 0 ? 'pop' : k % 10 === 5 ? 'shift' : ids[v++];
  return plan;
}

class VerificationError extends Error {}
function expect(ok, what) {
  if (!ok) throw new VerificationError(what);
}

const Note = Backbone.Model.extend({
  defaults: {title: '', done: false, archived: false}
});

function noteAttrs(i) {
  return {
    id: i, title: `note ${i}`, body: 'text', done: false, rank: i % 100,
    tags: ['a', 'b'], author: {name: 'x', id: 3}
  };
}

function plainNotes(n) {
  const list = new Array(n);
  for (let i = 0; i < n; i++) list[i] = {id: i, title: `note ${i}`, done: false, rank: i % 100};
  return list;
}

function countingModel(x0) {
  const state = {model: new Backbone.Model({x: x0}), attrEvents: 0, changeEvents: 0};
  state.model.on('change:x', () => { state.attrEvents += 1; });
  state.model.on('change', () => { state.changeEvents += 1; });
  return state;
}

// ---------------------------------------------------------------------------
// Workloads, in the order of the specification.
//
//   setup()            -> fresh state (untimed)
//   body(state)        -> the timed region (the driver holds the clock), or
//   body(state, clock) with selfTimed: true, for workloads that time only
//                         part of their body (coll_sort)
//   verify(state)      -> the check value; throws VerificationError

const WORKLOADS = [
  {
    name: 'set_change',
    ops: 1000000,
    expected: 2000000,
    setup: () => countingModel(-1),
    body(st) {
      const m = st.model;
      for (let i = 0; i < 1000000; i++) m.set({x: i});
    },
    verify(st) {
      expect(st.attrEvents === 1000000, `change:x fired ${st.attrEvents} times`);
      expect(st.changeEvents === 1000000, `change fired ${st.changeEvents} times`);
      expect(st.model.get('x') === 999999, `final x is ${st.model.get('x')}`);
      return st.attrEvents + st.changeEvents;
    }
  },

  {
    name: 'set_nochange',
    ops: 1000000,
    expected: 0,
    setup: () => countingModel(1),
    body(st) {
      const m = st.model;
      for (let i = 0; i < 1000000; i++) m.set({x: 1});
    },
    verify(st) {
      expect(st.attrEvents === 0 && st.changeEvents === 0,
        `events fired: change:x ${st.attrEvents}, change ${st.changeEvents}`);
      expect(st.model.get('x') === 1, 'x changed');
      return st.attrEvents + st.changeEvents;
    }
  },

  {
    name: 'construct',
    ops: 200000,
    expected: 9900000,
    setup: () => ({out: new Array(200000)}),
    body(st) {
      const out = st.out;
      for (let i = 0; i < 200000; i++) {
        out[i] = new Note({
          id: i, title: `note ${i}`, body: 'text', done: false, rank: i % 100,
          tags: ['a', 'b'], author: {name: 'x', id: 3}
        });
      }
    },
    verify(st) {
      const last = st.out[199999];
      expect(last instanceof Note, 'last slot is not a Note');
      expect(last.id === 199999, `last id ${last.id}`);
      expect(last.get('archived') === false, 'archived default missing');
      expect(last.get('title') === 'note 199999', `last title ${last.get('title')}`);
      expect(Object.keys(last.attributes).length === 8, `${Object.keys(last.attributes).length} attributes`);
      expect(last.hasChanged() === false, 'hasChanged() after construction');
      let rankSum = 0;
      for (let i = 0; i < 200000; i++) rankSum += st.out[i].get('rank');
      return rankSum;
    }
  },

  {
    name: 'coll_add',
    ops: 100000,
    expected: 921457440,
    setup() {
      const st = {coll: new Backbone.Collection(), input: plainNotes(100000), updates: []};
      st.coll.on('update', (coll, options) => { st.updates.push(options.changes.added.length); });
      return st;
    },
    body(st) {
      st.coll.add(st.input);
    },
    verify(st) {
      expect(st.coll.length === 100000, `length ${st.coll.length}`);
      expect(st.updates.length === 1 && st.updates[0] === 100000, `update events ${JSON.stringify(st.updates)}`);
      return orderChecksum(st.coll.models);
    }
  },

  {
    name: 'coll_get',
    ops: 1000000,
    expected: 49500000,
    setup() {
      const coll = new Backbone.Collection();
      coll.add(plainNotes(100000));
      return {coll, found: 0, rankSum: 0};
    },
    body(st) {
      const c = st.coll;
      let found = 0;
      let rankSum = 0;
      for (let r = 0; r < 10; r++) {
        for (let id = 0; id < 100000; id++) {
          const m = c.get(id);
          if (m !== undefined) {
            found += 1;
            rankSum += m.attributes.rank;
          }
        }
      }
      st.found = found;
      st.rankSum = rankSum;
    },
    verify(st) {
      expect(st.found === 1000000, `found ${st.found}`);
      return st.rankSum;
    }
  },

  {
    name: 'coll_sort',
    ops: 5,
    expected: 688006713,
    selfTimed: true,
    setup() {
      const next = parkMiller(42);
      const input = new Array(100000);
      for (let id = 0; id < 100000; id++) input[id] = {id, rank: next() % 1000000};
      const coll = new Backbone.Collection(input, {comparator: 'rank'});
      const byId = new Array(100000);
      for (const m of coll.models) byId[m.id] = m;
      const st = {coll, byId, next, sortEvents: 0};
      coll.on('sort', () => { st.sortEvents += 1; });
      return st;
    },
    body(st, clock) {
      const {coll, byId, next} = st;
      for (let round = 0; round < 5; round++) {
        for (let id = 0; id < 100000; id++) byId[id].set({rank: next() % 1000000}, {silent: true});
        collect(); // the shuffle's garbage is not the sort's cost
        clock.start();
        coll.sort();
        clock.stop();
      }
    },
    verify(st) {
      expect(st.sortEvents === 5, `${st.sortEvents} sort events`);
      const ms = st.coll.models;
      expect(ms.length === 100000, `length ${ms.length}`);
      for (let i = 1; i < ms.length; i++) {
        expect(ms[i - 1].attributes.rank <= ms[i].attributes.rank, `ranks decrease at ${i}`);
      }
      return orderChecksum(ms);
    }
  },

  {
    name: 'coll_set_merge',
    ops: 100000,
    expected: 1965091872,
    setup() {
      const initial = new Array(100000);
      for (let i = 0; i < 100000; i++) initial[i] = {id: i, title: `note ${i}`, rank: i % 100};
      const coll = new Backbone.Collection();
      coll.add(initial);
      const input = new Array(100000);
      for (let k = 0; k < 100000; k++) {
        const id = 50000 + k;
        const title = id < 100000 && id % 2 === 0 ? `note ${id} v2` : `note ${id}`;
        input[k] = {id, title, rank: id % 100};
      }
      const st = {coll, input, updates: [], titleEvents: 0};
      coll.on('update', (c, options) => { st.updates.push(options.changes); });
      coll.on('change:title', () => { st.titleEvents += 1; });
      return st;
    },
    body(st) {
      st.coll.set(st.input, {remove: true});
    },
    verify(st) {
      const c = st.coll;
      expect(st.updates.length === 1, `${st.updates.length} update events`);
      const ch = st.updates[0];
      expect(ch.added.length === 50000 && ch.removed.length === 50000 && ch.merged.length === 50000,
        `changes added ${ch.added.length} removed ${ch.removed.length} merged ${ch.merged.length}`);
      expect(st.titleEvents === 25000, `${st.titleEvents} change:title events`);
      expect(c.length === 100000, `length ${c.length}`);
      expect(c.at(0).id === 50000 && c.at(99999).id === 149999, `ends ${c.at(0).id}..${c.at(99999).id}`);
      return orderChecksum(c.models);
    }
  },

  {
    name: 'parse_reset',
    ops: 100000,
    expected: 921457440,
    setup() {
      const rows = new Array(100000);
      for (let i = 0; i < 100000; i++) rows[i] = noteAttrs(i);
      const Notes = Backbone.Collection.extend({model: Note});
      const st = {coll: new Notes(), json: JSON.stringify(rows), resets: 0};
      st.coll.on('reset', () => { st.resets += 1; });
      return st;
    },
    body(st) {
      st.coll.reset(JSON.parse(st.json), {parse: true});
    },
    verify(st) {
      const c = st.coll;
      expect(st.resets === 1, `${st.resets} reset events`);
      expect(c.length === 100000, `length ${c.length}`);
      const m = c.get(77777);
      expect(m instanceof Note, 'get(77777) is not a Note');
      expect(m.get('author').id === 3, 'author.id');
      expect(m.get('archived') === false, 'archived');
      expect(m.get('tags').length === 2, 'tags');
      return orderChecksum(c.models);
    }
  },

  {
    name: 'trigger_10',
    ops: 1000000,
    expected: 10000000,
    setup() {
      const st = {obj: Object.assign({}, Backbone.Events), count: 0, sum: 0};
      for (let k = 0; k < 10; k++) {
        st.obj.on('ping', (i) => { st.count += 1; st.sum += i; });
      }
      return st;
    },
    body(st) {
      const o = st.obj;
      for (let i = 0; i < 1000000; i++) o.trigger('ping', i);
    },
    verify(st) {
      expect(st.sum === 4999995000000, `sum ${st.sum}`);
      return st.count;
    }
  },

  {
    name: 'listen_stop',
    ops: 100000,
    expected: 0,
    setup() {
      const st = {a: Object.assign({}, Backbone.Events), b: Object.assign({}, Backbone.Events), calls: 0};
      st.handler = () => { st.calls += 1; };
      return st;
    },
    body(st) {
      const {a, b, handler} = st;
      for (let i = 0; i < 100000; i++) {
        a.listenTo(b, 'change', handler);
        a.stopListening();
      }
    },
    verify(st) {
      const {a, b} = st;
      b.trigger('change');
      expect(!(b._events && b._events.change), 'B still has change handlers');
      expect(b._events === undefined || Object.keys(b._events).length === 0, 'B has leftover handlers');
      expect(a._listeningTo === undefined || Object.keys(a._listeningTo).length === 0, "A's _listeningTo is not empty");
      expect(b._listeners === undefined || Object.keys(b._listeners).length === 0, "B's _listeners is not empty");
      return st.calls;
    }
  },

  {
    name: 'bubble',
    ops: 1000000,
    expected: 1000000,
    setup() {
      const initial = new Array(1000);
      for (let i = 0; i < 1000; i++) initial[i] = {id: i, title: `note ${i}`};
      const titles = new Array(1000);
      for (let r = 0; r < 1000; r++) titles[r] = `title ${r}`;
      const st = {coll: new Backbone.Collection(initial), titles, count: 0};
      st.coll.on('change:title', () => { st.count += 1; });
      return st;
    },
    body(st) {
      const models = st.coll.models;
      const titles = st.titles;
      for (let r = 0; r < 1000; r++) {
        const title = titles[r];
        for (let i = 0; i < 1000; i++) models[i].set({title});
      }
    },
    verify(st) {
      expect(st.coll.models[999].get('title') === 'title 999', 'last title');
      return st.count;
    }
  },

  {
    name: 'coll_remove',
    ops: 20000,
    expected: 2440613143,
    setup() {
      const st = {coll: new Backbone.Collection(plainNotes(100000)), plan: removalPlan(), calls: 0, indexSum: 0};
      st.coll.on('remove', (model, coll, options) => { st.calls += 1; st.indexSum += options.index; });
      return st;
    },
    body(st) {
      const c = st.coll;
      const plan = st.plan;
      for (let k = 0; k < plan.length; k++) {
        const step = plan[k];
        if (step === 'pop') c.pop();
        else if (step === 'shift') c.shift();
        else c.remove(step);
      }
    },
    verify(st) {
      const c = st.coll;
      expect(st.calls === 20000, `${st.calls} remove events`);
      expect(c.length === 80000, `length ${c.length}`);
      expect(c.at(0).id === 2001 && c.at(79999).id === 97998, `ends ${c.at(0).id}..${c.at(79999).id}`);
      return (orderChecksum(c.models) + st.indexSum) % 4294967296;
    }
  }
];

// Backbone has no typed keys: the rows of Keel's typed workloads (model[key] = value,
// model.set(key, value)) run Backbone's plain set of set_change and set_nochange, so that
// Keel's typed path is compared with what a Backbone application writes.
for (const [typed, plain] of [['set_typed_change', 'set_change'], ['set_typed_nochange', 'set_nochange']]) {
  WORKLOADS.push({...WORKLOADS.find((w) => w.name === plain), name: typed});
}

// Workloads of the specification that Backbone cannot run, with the reason.
// They are accepted in WORKLOADS, have no result, and are listed in the JSON
// under "without_backbone"; compare.py shows them as "—" and leaves them out
// of the geometric mean.
const WITHOUT_BACKBONE = {
  nested_merge: 'Backbone 1.6 has no relations: a model attribute holding an array stays plain JSON, '
    + 'so there are no nested models to merge into',
  sync_fetch: 'Backbone.sync needs a browser or jQuery HTTP stack that Node does not have; '
    + 'keel-bench compares this workload with a raw URLSession + JSONSerialization fetch instead',
  store_write_read: 'Backbone has no local store (Backbone.sync only speaks HTTP); keel-bench compares '
    + 'SQLiteSync with raw sqlite3 calls doing the same durable writes and reads instead',
  store_write_read_memory: 'Backbone has no local store; keel-bench compares SQLiteSync in memory '
    + 'with raw sqlite3 calls on an in-memory database instead',
  store_fetch_all_10k: 'Backbone has no local store; keel-bench compares SQLiteSync with raw sqlite3 '
    + 'calls filling plain objects instead (issue 33)',
  store_fetch_all_100k: 'Backbone has no local store; as store_fetch_all_10k with 100,000 records',
  wire_twitter: 'an anchor against Foundation (JSONDecoder, JSONSerialization), not Backbone (issue 33)',
  wire_canada: 'an anchor against Foundation (JSONDecoder, JSONSerialization), not Backbone (issue 33)',
  store_read_by_id: 'Backbone has no local store; keel-bench compares a read by id with raw sqlite3 instead',
  store_create: 'Backbone has no local store; keel-bench compares durable creates with raw sqlite3 instead',
  store_save: 'Backbone has no local store; keel-bench compares durable saves with raw sqlite3 instead',
  store_destroy: 'Backbone has no local store; keel-bench compares durable destroys with raw sqlite3 instead',
  bulk_relations: 'Backbone 1.6 has no relations or identity map; keel-bench compares with plain objects '
    + 'linked by reference instead',
  change_pull: 'Backbone has no local store or incremental pull; keel-bench compares with a full refetch '
    + 'and raw sqlite3 instead (issue 31)',
  change_push_apply: 'Backbone has no push source; keel-bench compares with plain objects updated from '
    + 'parsed events instead (issue 31)'
};

// ---------------------------------------------------------------------------
// Driver

function makeClock() {
  let total = 0n;
  let t0 = null;
  return {
    start() { t0 = process.hrtime.bigint(); },
    stop() { total += process.hrtime.bigint() - t0; t0 = null; },
    ms() { return Number(total) / 1e6; }
  };
}

// One setup + body + verification. Returns {ms, check}.
function runOnce(w) {
  let st = w.setup();
  collect();
  const clock = makeClock();
  if (w.selfTimed) {
    w.body(st, clock);
  } else {
    clock.start();
    w.body(st);
    clock.stop();
  }
  const check = w.verify(st);
  if (check !== w.expected) throw new VerificationError(`check ${check}, expected ${w.expected}`);
  st = null;
  collect();
  return {ms: clock.ms(), check};
}

function median(xs) {
  const s = xs.slice().sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

function round3(x) {
  return Math.round(x * 1000) / 1000;
}

function opsPerSec(ops, ms) {
  const v = ops / (ms / 1000);
  return v >= 1000 ? Math.round(v) : round3(v);
}

function runWorkload(w) {
  const res = {ops: w.ops, total_ms: null, ops_per_sec: null, times_ms: [], check: null,
    expected_check: w.expected, check_ok: false};
  try {
    runOnce(w); // warm-up on fresh state, result discarded
    for (let r = 0; r < REPS; r++) {
      const one = runOnce(w);
      res.times_ms.push(round3(one.ms));
      res.check = one.check;
    }
    const ms = median(res.times_ms);
    res.total_ms = round3(ms);
    res.ops_per_sec = opsPerSec(w.ops, ms);
    res.check_ok = true;
  } catch (e) {
    if (!(e instanceof VerificationError)) throw e;
    res.error = e.message;
  }
  res.max_rss_kb = peakRssKb();
  return res;
}

function lineFor(name, r) {
  if (!r.check_ok) return `${name} FAILED ${r.error || 'unknown error'}`;
  return `${name} ${r.ops_per_sec} ${r.total_ms.toFixed(3)}`;
}

function report(results, isolated, maxRssKb, extra) {
  const doc = Object.assign({
    harness: 'keel Benchmarks/backbone/bench.js',
    node: process.version,
    v8: process.versions.v8,
    backbone: Backbone.VERSION,
    underscore: _.VERSION,
    platform: `${os.platform()} ${os.arch()}`,
    cpu: (os.cpus()[0] || {}).model || null,
    reps: REPS,
    isolated,
    gc_exposed: forceGc !== null,
    gc_method: gcMethod,
    max_rss_kb: maxRssKb,
    all_checks_ok: Object.values(results).every((r) => r.check_ok),
    workloads: results
  }, extra);
  console.log(JSON.stringify(doc, null, 2));
  return doc.all_checks_ok;
}

// The selected workloads that run here, in specification order, and the
// selected ones without a Backbone counterpart ({name: reason}).
function selectedWorkloads() {
  const all = Object.keys(WITHOUT_BACKBONE);
  let names = all.concat(WORKLOADS.map((w) => w.name));
  if (process.env.WORKLOADS) {
    names = process.env.WORKLOADS.split(',').map((s) => s.trim()).filter(Boolean);
    const known = new Set(WORKLOADS.map((w) => w.name).concat(all));
    const unknown = names.filter((n) => !known.has(n));
    if (unknown.length) usageError(`unknown workload(s): ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
  }
  const want = new Set(names);
  const withoutBackbone = {};
  for (const name of all) {
    if (want.has(name)) withoutBackbone[name] = WITHOUT_BACKBONE[name];
  }
  return {runnable: WORKLOADS.filter((w) => want.has(w.name)), withoutBackbone};
}

function reportNotRun(withoutBackbone) {
  for (const [name, reason] of Object.entries(withoutBackbone)) {
    process.stderr.write(`bench.js: ${name} not run: ${reason}\n`);
  }
}

function extractJson(text) {
  const start = text.search(/^\{/m);
  if (start < 0) return null;
  try {
    return JSON.parse(text.slice(start));
  } catch (e) {
    return null;
  }
}

function mainIsolated(selected, withoutBackbone) {
  const {spawnSync} = require('child_process');
  const results = {};
  for (const w of selected) {
    const env = Object.assign({}, process.env, {ISOLATE: '0', WORKLOADS: w.name});
    const child = spawnSync(process.execPath, [...process.execArgv, __filename],
      {env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024});
    const doc = child.stdout ? extractJson(child.stdout) : null;
    let r = doc && doc.workloads && doc.workloads[w.name];
    if (!r) {
      process.stderr.write(`bench.js: child for ${w.name} failed (status ${child.status}, signal ${child.signal})\n`);
      process.stderr.write((child.stdout || '') + (child.stderr || ''));
      r = {ops: w.ops, total_ms: null, ops_per_sec: null, times_ms: [], check: null,
        expected_check: w.expected, check_ok: false, error: `child exited with status ${child.status}`};
    } else if (child.stderr) {
      process.stderr.write(child.stderr);
    }
    r.child_max_rss_kb = r.max_rss_kb != null ? r.max_rss_kb : null;
    results[w.name] = r;
    console.log(lineFor(w.name, r));
  }
  const childPeaks = Object.values(results).map((r) => r.child_max_rss_kb || 0);
  return report(results, true, Math.max(0, ...childPeaks), {
    max_rss_note: 'max over the per-workload child processes (each includes Node baseline, setup and warm-up)',
    parent_max_rss_kb: peakRssKb(),
    without_backbone: withoutBackbone
  });
}

function mainSequential(selected, withoutBackbone) {
  const results = {};
  for (const w of selected) {
    const r = runWorkload(w);
    results[w.name] = r;
    console.log(lineFor(w.name, r));
  }
  return report(results, false, peakRssKb(), {
    max_rss_note: 'peak RSS of this one process; per-workload max_rss_kb is the high-water mark so far',
    without_backbone: withoutBackbone
  });
}

const {runnable, withoutBackbone} = selectedWorkloads();
reportNotRun(withoutBackbone);
const ok = ISOLATE ? mainIsolated(runnable, withoutBackbone) : mainSequential(runnable, withoutBackbone);
process.exitCode = ok ? 0 : 1;
