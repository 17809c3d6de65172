"""tafel.shards: read the training shards of `tafel selfplay` with numpy.

    import tafel.shards
    data = tafel.shards.load("run/")        # the folder of manifest.json
    batch = data.batch(np.arange(256))      # dense arrays for 256 samples
    batch["obs"], batch["mask"], batch["policy"], batch["outcome"]

The format is docs/selfplay.md's.  Each shard file is mapped (np.memmap)
and its sections are views of the mapping, no copies: Shard.obs of one
shard is the file's own bytes.  Across shards, Shards.batch gathers the
rows asked for (a training step's batch) without joining the shards;
Shards.obs, .mask_bits, .policy_index and .policy_share join them (a copy,
unless there is one shard), and Shards.mask unpacks every mask (a copy
of n * action_space bools: for a small run).
"""
import json
import os

try:
    import numpy as np
except ImportError as missing:  # pragma: no cover - depends on the machine
    raise ImportError("tafel.shards needs numpy (%s): apt install python3-numpy"
                      % missing) from missing

MAGIC = b"TAFELSP1"
VERSION = 2  # version 1 (no search_value) is read too
HEADER_BYTES = 256
KINDS = ("observation", "information_state")

# The header: (name, dtype) in file order, then the ten section offsets
# (version 1 had nine; its tenth is header padding, 0).
_HEADER = np.dtype([
    ("magic", "S8"), ("version", "<u4"), ("header_bytes", "<u4"),
    ("first_game", "<u8"), ("games", "<u8"), ("samples", "<u8"), ("pairs", "<u8"),
    ("kind", "<u4"), ("players", "<u4"), ("tensor_size", "<u4"),
    ("action_space", "<u4"), ("mask_bytes", "<u4"), ("reserved", "<u4"),
    ("offset", "<u8", (10,)),
])
# The sections, in the order of the header's offsets.
_SECTIONS = ("obs", "mask_bits", "game", "seat", "outcome", "margin",
             "policy_start", "policy_index", "policy_share", "search_value")


class ShardError(ValueError):
    """A file or folder that is not what tafel selfplay writes."""


class Shard:
    """One shard file, every section a view of its mapping:

    obs float32 (n, tensor_size); mask_bits uint8 (n, mask_bytes); game
    int64 (n,); seat int32 (n,); outcome float32 (n,), +1 a winner, -1 not,
    0 when every seat won; margin float32 (n,), the seat's final score
    minus the best other seat's; policy_start int64 (n + 1,), sample s has
    the pairs policy_index[start[s]:start[s+1]] (int32, ascending) and
    policy_share[...] (float32, summing to 1)."""

    def __init__(self, path):
        self.path = path
        data = np.memmap(path, dtype=np.uint8, mode="r")
        if len(data) < HEADER_BYTES:
            raise ShardError("%s: shorter than a shard's header" % path)
        h = np.frombuffer(data, _HEADER, count=1)[0]
        if bytes(h["magic"]) != MAGIC or int(h["version"]) not in (1, VERSION):
            raise ShardError("%s: not a shard of tafel selfplay (version %d)"
                             % (path, VERSION))
        n, p = int(h["samples"]), int(h["pairs"])
        self.first_game, self.games = int(h["first_game"]), int(h["games"])
        self.kind = KINDS[int(h["kind"])]
        self.players = int(h["players"])
        self.action_space = int(h["action_space"])
        shapes = {
            "obs": ("<f4", (n, int(h["tensor_size"]))),
            "mask_bits": ("u1", (n, int(h["mask_bytes"]))),
            "game": ("<i8", (n,)), "seat": ("<i4", (n,)),
            "outcome": ("<f4", (n,)), "margin": ("<f4", (n,)),
            "policy_start": ("<i8", (n + 1,)),
            "policy_index": ("<i4", (p,)), "policy_share": ("<f4", (p,)),
            "search_value": ("<f4", (n,)),
        }
        if int(h["version"]) == 1:  # no search values: "none" (-1) for each
            self.search_value = np.full(n, -1, np.float32)
        for name, offset in zip(_SECTIONS, h["offset"]):
            if name == "search_value" and int(h["version"]) == 1:
                continue
            dtype, shape = shapes[name]
            count = int(np.prod(shape))
            end = int(offset) + count * np.dtype(dtype).itemsize
            if end > len(data):
                raise ShardError("%s: section %s runs past the end" % (path, name))
            view = np.frombuffer(data, dtype, count=count, offset=int(offset))
            setattr(self, name, view.reshape(shape))

    def __len__(self):
        return len(self.seat)

    def policy(self, s):
        """Sample s's policy, sparse: (indices, shares), views."""
        a, b = self.policy_start[s], self.policy_start[s + 1]
        return self.policy_index[a:b], self.policy_share[a:b]


def unpack_masks(bits, action_space):
    """Packed mask rows (uint8, bit j of byte j // 8, lowest first) as bools."""
    return np.unpackbits(bits, axis=-1, count=action_space,
                         bitorder="little").astype(bool)


class Shards:
    """Every shard of a run (load(dir)).  manifest: the run's manifest.json;
    shards: the Shard of each file; the per-sample columns game, seat,
    outcome, margin joined (small); obs_shape the tensor's shape."""

    def __init__(self, manifest, shards):
        self.manifest = manifest
        self.shards = shards
        self.action_space = int(manifest["action_space"])
        self.obs_shape = tuple(manifest["tensor_shape"])
        self._ends = np.cumsum([len(s) for s in shards], dtype=np.int64)
        for name in ("game", "seat", "outcome", "margin", "search_value"):
            setattr(self, name, self._join(name))

    def __len__(self):
        return int(self._ends[-1]) if len(self._ends) else 0

    def _join(self, name):
        parts = [getattr(s, name) for s in self.shards]
        return parts[0] if len(parts) == 1 else np.concatenate(parts)

    @property
    def obs(self):
        """Every tensor, (n, *obs_shape): a view for one shard, else a copy."""
        return self._join("obs").reshape((len(self),) + self.obs_shape)

    @property
    def mask_bits(self):
        return self._join("mask_bits")

    @property
    def mask(self):
        """Every legal mask as bools (n, action_space): a copy."""
        return unpack_masks(self.mask_bits, self.action_space)

    def _rows(self, rows):
        """For each global row: its shard and its row in the shard."""
        rows = np.asarray(rows, dtype=np.int64).reshape(-1)
        if len(rows) and (rows.min() < 0 or rows.max() >= len(self)):
            raise IndexError("sample out of range 0..%d" % (len(self) - 1))
        shard = np.searchsorted(self._ends, rows, side="right")
        local = rows - np.concatenate(([0], self._ends))[shard]
        return rows, shard, local

    def policy(self, i):
        """Sample i's policy, sparse: (indices, shares), views."""
        _, shard, local = self._rows([i])
        return self.shards[shard[0]].policy(local[0])

    def policy_dense(self, rows):
        """The policies of rows, dense: float32 (len(rows), action_space)."""
        rows, shard, local = self._rows(rows)
        out = np.zeros((len(rows), self.action_space), np.float32)
        for k in range(len(rows)):
            index, share = self.shards[shard[k]].policy(local[k])
            out[k, index] = share
        return out

    def batch(self, rows):
        """Dense arrays for the samples rows: obs (k, *obs_shape), mask bool
        (k, action_space), policy float32 (k, action_space), seat, outcome,
        margin, game (k,)."""
        rows, shard, local = self._rows(rows)
        obs = np.empty((len(rows),) + self.obs_shape, np.float32)
        bits = np.empty((len(rows), (self.action_space + 7) // 8), np.uint8)
        for s in np.unique(shard):
            at = np.nonzero(shard == s)[0]
            obs.reshape(len(rows), -1)[at] = self.shards[s].obs[local[at]]
            bits[at] = self.shards[s].mask_bits[local[at]]
        return {"obs": obs, "mask": unpack_masks(bits, self.action_space),
                "policy": self.policy_dense(rows), "seat": self.seat[rows],
                "outcome": self.outcome[rows], "margin": self.margin[rows],
                "search_value": self.search_value[rows],
                "game": self.game[rows]}


def load(folder, allow_incomplete=False):
    """The run tafel selfplay wrote to folder: its manifest and every shard
    it lists.  A run still going, or cut (manifest "complete": false), is
    refused unless allow_incomplete: then the shards whole on disk are
    read."""
    with open(os.path.join(folder, "manifest.json")) as f:
        manifest = json.load(f)
    if manifest.get("format") != "tafel-selfplay":
        raise ShardError("%s: not a manifest of tafel selfplay" % folder)
    if manifest.get("complete"):
        names = [entry["file"] for entry in manifest["shards"]]
    elif allow_incomplete:
        names = sorted(n for n in os.listdir(folder)
                       if n.startswith("shard-") and n.endswith(".bin"))
    else:
        raise ShardError("%s: the run is not complete (tafel selfplay --resume "
                         "finishes it; allow_incomplete=True reads what is there)"
                         % folder)
    shards = [Shard(os.path.join(folder, name)) for name in names]
    for shard in shards:
        if shard.kind != manifest["kind"] or shard.obs.shape[1] != manifest["tensor_size"]:
            raise ShardError("%s: not of this run's tensors" % shard.path)
    return Shards(manifest, shards)
