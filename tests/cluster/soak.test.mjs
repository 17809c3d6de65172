// soak.test.mjs -- the cluster's soak (bench/soak-cluster.mjs) in brief, for
// CI: 30 tables of a person against a bot played through HAProxy as the
// page plays them, one owner killed with kill -9 and started again: every
// acknowledged move is in the store once, no move is acknowledged twice,
// and the dead node's tables all play again within lease + 8 s (the page's
// reconnection and its think time on top of lease + sweep).

import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { stopAll } from '../server/helpers.mjs';
import { missingCluster, stopProxies } from './harness.mjs';
import { soak } from '../../bench/soak-cluster.mjs';

after(async () => {
  stopProxies();
  await stopAll();
});

test('30 tables, a node killed: nothing acknowledged is lost or doubled, its tables play again',
  { skip: missingCluster(), timeout: 120000 }, async (t) => {
    const lease = 2;
    const s = await soak({ tables: 30, minutes: 0.35, killEvery: 12, think: 500, lease, port: 18540 },
      (line) => t.diagnostic(line));
    assert.equal(s.kills.length, 1, `one kill: ${JSON.stringify(s.kills)}`);
    assert.ok(s.kills[0].tables > 0, 'the node killed owned tables');
    assert.ok(s.moves_acknowledged >= 100, `moves went on: ${s.moves_acknowledged}`);
    assert.deepEqual({ missing: s.missing, duplicated: s.duplicated, examples: s.examples },
      { missing: 0, duplicated: 0, examples: [] });
    assert.ok(s.kills[0].played_again_ms <= (lease + 8) * 1000,
      `the dead node's tables played again: ${JSON.stringify(s.kills[0])}`);
    t.diagnostic(`takeover ${s.kills[0].played_again_ms} ms, ack p50 ${s.ack_ms.p50} ms, `
      + `p99 ${s.ack_ms.p99} ms, ${s.moves_acknowledged} moves`);
  });
