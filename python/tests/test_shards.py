"""tafel.shards: the shards of `tafel selfplay` read back as numpy arrays,
each sample the tensor and legal mask of its position in the game the
records of `tafel sim` (same seed and bots) replay, the arrays of one shard
views of the file."""
import json
import os
import tempfile
import unittest

from helpers import cli_path, run_cli, tafel

try:
    import numpy as np
    import tafel.shards as shards
except ImportError:  # pragma: no cover
    np = None

GAME, BOTS = "cardcassonne(players=3)", "mcts:iters=20,greedy,random"


@unittest.skipUnless(np is not None, "numpy is not importable")
class ShardsTest(unittest.TestCase):

    @classmethod
    def setUpClass(cls):
        cli_path()
        cls.work = tempfile.TemporaryDirectory()
        cls.folder = os.path.join(cls.work.name, "run")
        common = ("--players", BOTS, "--games", "3", "--seed", "11", "--progress", "0")
        run_cli("selfplay", GAME, *common, "--shard-games", "2", "--out", cls.folder)
        records = os.path.join(cls.work.name, "games.jsonl")
        run_cli("sim", GAME, *common, "--out", records)
        with open(records) as f:
            cls.records = [tafel.Record.from_json(line) for line in f]

    @classmethod
    def tearDownClass(cls):
        cls.work.cleanup()

    def test_samples_are_the_positions_of_the_records(self):
        data = shards.load(self.folder)
        game = tafel.load(GAME)
        self.assertEqual(data.obs.shape,
                         (len(data),) + game.information_state_tensor_shape)
        row = 0
        for number, record in enumerate(self.records):
            state = game.new_state()
            for action in record.actions:
                seat = state.current_player()
                if not state.is_chance():
                    self.assertEqual((data.game[row], data.seat[row]), (number, seat))
                    self.assertTrue(np.array_equal(data.obs[row],
                                                   state.information_state_tensor(seat)))
                    self.assertTrue(np.array_equal(data.mask[row],
                                                   state.legal_actions_mask()))
                    index, share = data.policy(row)
                    self.assertTrue(data.mask[row][index].all())
                    self.assertAlmostEqual(float(share.sum()), 1, places=5)
                    row += 1
                state.apply(action)
        self.assertEqual(row, len(data))

    def test_a_batch_is_the_rows_asked_for(self):
        data = shards.load(self.folder)
        rows = np.array([len(data) - 1, 0, 7, len(data.shards[0])])  # both shards
        batch = data.batch(rows)
        self.assertTrue(np.array_equal(batch["obs"], data.obs[rows]))
        self.assertTrue(np.array_equal(batch["mask"], data.mask[rows]))
        for k, r in enumerate(rows):
            index, share = data.policy(r)
            dense = np.zeros(data.action_space, np.float32)
            dense[index] = share
            self.assertTrue(np.array_equal(batch["policy"][k], dense))
        for name in ("seat", "outcome", "margin", "game"):
            self.assertTrue(np.array_equal(batch[name], getattr(data, name)[rows]))
        self.assertEqual(batch["mask"].dtype, np.bool_)

    def test_a_shard_is_read_without_copies(self):
        shard = shards.load(self.folder).shards[0]
        for name in ("obs", "mask_bits", "seat", "policy_index", "policy_share"):
            array = getattr(shard, name)
            self.assertFalse(array.flags.owndata, name)
            self.assertFalse(array.flags.writeable, name)

    def test_an_incomplete_run_is_refused_unless_allowed(self):
        path = os.path.join(self.folder, "manifest.json")
        with open(path) as f:
            manifest = json.load(f)
        manifest["complete"] = False
        other = os.path.join(self.work.name, "cut")
        os.mkdir(other)
        with open(os.path.join(other, "manifest.json"), "w") as f:
            json.dump(manifest, f)
        os.link(os.path.join(self.folder, "shard-000000.bin"),
                os.path.join(other, "shard-000000.bin"))
        with self.assertRaises(shards.ShardError):
            shards.load(other)
        self.assertEqual(len(shards.load(other, allow_incomplete=True).shards), 1)


if __name__ == "__main__":
    unittest.main()
