"""python/examples/value_net.py --quick, where torch imports: it reports
the value net's accuracy and the baselines', and learns something (beats
the majority class on its training positions)."""
import json
import os
import subprocess
import sys
import unittest

from helpers import tensor_games

EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                       "examples", "value_net.py")

try:
    import torch  # noqa: F401
    HAVE_TORCH = True
except ImportError:
    HAVE_TORCH = False


@unittest.skipUnless(HAVE_TORCH, "torch is not importable by this Python "
                     "(Debian's python3-torch is in /usr/bin/python3)")
class ValueNetExampleTest(unittest.TestCase):

    def test_the_quick_run_learns_and_reports_both_accuracies(self):
        games = tensor_games(("cardcassonne(players=2)", "catan_cards"))
        if not games:
            self.skipTest("neither card game has tensors in this libtafel")
        done = subprocess.run(
            [sys.executable, EXAMPLE, "--quick", "--json",
             "--game", games[0].game_string],
            capture_output=True, text=True, timeout=300)
        self.assertEqual(done.returncode, 0, done.stderr)
        result = json.loads(done.stdout.splitlines()[0])
        for key in ("held_out_accuracy", "leader_accuracy",
                    "majority_accuracy", "train_accuracy"):
            self.assertGreaterEqual(result[key], 0.0, key)
            self.assertLessEqual(result[key], 1.0, key)
        self.assertGreater(result["held_out_positions"], 0)
        self.assertGreater(result["train_accuracy"],
                           result["train_majority_accuracy"])


if __name__ == "__main__":
    unittest.main()
