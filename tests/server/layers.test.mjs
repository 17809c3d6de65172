// layers.test.mjs -- the server's layers keep their arrows one way
// (docs/server.md, "The server in layers"; the style guide, "A server in
// layers").
//
// Reads the #include lines of every file under src/server/: a file may
// include the headers of its own layer and of the layers below it, never
// one of a layer above (transport > protocol > tables > club > store, with
// serve.c, options.c and server.h on top of them all).  And no file of
// src/ outside src/server/store/ names SQLite's or libpq's API: the store
// is the one place SQL is run.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, dirname, basename } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const server = join(root, 'src', 'server');
const RANKS = { store: 0, club: 1, tables: 2, protocol: 3, transport: 4 };
const TOP = 5; // src/server/ itself: serve.c, options.c, server.h

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return walk(path);
    return /\.[ch]$/.test(e.name) ? [path] : [];
  });
}

/** The layer of a file under src/server/, as its rank (higher: on top). */
function rankOf(path) {
  const parts = relative(server, path).split('/');
  if (parts.length === 1) return TOP;
  const rank = RANKS[parts[0]];
  assert.notEqual(rank, undefined, `${relative(root, path)} is in no known layer`);
  return rank;
}

const layerName = (rank) => Object.keys(RANKS).find((k) => RANKS[k] === rank) ?? 'the top';

/** Every header of src/server/ by its file name (the includes name no folder). */
function headers(files) {
  const byName = new Map();
  for (const f of files.filter((f) => f.endsWith('.h'))) {
    assert.ok(!byName.has(basename(f)), `two headers named ${basename(f)}`);
    byName.set(basename(f), rankOf(f));
  }
  return byName;
}

/** The arrows that go up: "file includes header (of a higher layer)". */
export function upwardIncludes(files, text = (f) => readFileSync(f, 'utf8')) {
  const byName = headers(files);
  const wrong = [];
  for (const f of files) {
    const rank = rankOf(f);
    for (const m of text(f).matchAll(/^\s*#\s*include\s*[<"]([^">]+)[">]/gm)) {
      const to = byName.get(basename(m[1]));
      if (to !== undefined && to > rank)
        wrong.push(`${relative(root, f)} (${layerName(rank)}) includes ${m[1]} (${layerName(to)})`);
    }
  }
  return wrong;
}

/** Files outside src/server/store/ that name SQLite's or libpq's API. */
export function sqlOutsideStore(files, text = (f) => readFileSync(f, 'utf8')) {
  const store = join(server, 'store') + '/';
  const api = /\bsqlite3_\w+|\bsqlite3\.h\b|\bPQ[a-z]\w*|\bPG(?:conn|result)\b|\blibpq-fe\.h\b/;
  return files
    .filter((f) => !f.startsWith(store))
    .map((f) => [f, text(f).match(api)])
    .filter(([, m]) => m)
    .map(([f, m]) => `${relative(root, f)} names ${m[0]}`);
}

test('no file of src/server/ includes a header of a layer above its own', () => {
  const wrong = upwardIncludes(walk(server));
  assert.deepEqual(wrong, [], `arrows that go up:\n  ${wrong.join('\n  ')}`);
});

test('no file of src/ outside src/server/store/ calls SQLite or libpq', () => {
  const wrong = sqlOutsideStore(walk(join(root, 'src')));
  assert.deepEqual(wrong, [], `SQL outside the store:\n  ${wrong.join('\n  ')}`);
});

// The checks themselves find what they look for (on made-up files, so that
// a check that could never fail would be seen failing here).
test('the checks see an include that goes up and a call to SQLite or libpq', () => {
  const files = ['tables/tables.c', 'protocol/protocol.h', 'store/store.h', 'club/ratings.c',
    'serve.c', 'server.h', 'transport/http.c'].map((p) => join(server, p));
  const texts = {
    'tables/tables.c': '#include "store.h"\n#include "protocol.h"\n',
    'club/ratings.c': '#include "store.h"\nint n = sqlite3_changes(db);\n',
    'transport/http.c': '# include "server.h"\nPGconn *c = PQconnectdb("");\n',
    'serve.c': '#include "protocol.h"\n#include "server.h"\n',
  };
  const text = (f) => texts[relative(server, f)] ?? '';
  assert.deepEqual(upwardIncludes(files, text), [
    'src/server/tables/tables.c (tables) includes protocol.h (protocol)',
    'src/server/transport/http.c (transport) includes server.h (the top)',
  ]);
  assert.deepEqual(sqlOutsideStore(files, text), [
    'src/server/club/ratings.c names sqlite3_changes',
    'src/server/transport/http.c names PGconn',
  ]);
});
