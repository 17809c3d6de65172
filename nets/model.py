"""The nets of tafel in PyTorch, and their weights file (docs/nets.md).

One shape serves every game, the one src/nn/net.c runs: optional 3x3
convolutions (padding 1, ReLU) over the board planes at the front of the
tensor, a 1x1 squeeze (ReLU), the rest of the tensor joined after the
squeezed planes (channel-major, as torch.flatten gives them), dense layers
with ReLU, a value head (a softmax over the seats, the observer first) and
an optional policy head (logits over the action space).

The inputs' scaling is part of the net: the dense part of the tensor is
standardised (mean, spread of the training data) by the first dense layer
itself, folded into its weights when the file is written, so C reads raw
tensors.
"""
import struct

import torch
from torch import nn

MAGIC = b"TAFELNN\x01"
VERSION = 1
KINDS = {"observation": 0, "information_state": 1}


class TafelNet(nn.Module):
    def __init__(self, inputs, players, policy, planes=0, board=0, convs=(), squeeze=0,
                 hidden=(256, 128)):
        super().__init__()
        self.inputs, self.players, self.policy_size = inputs, players, policy
        self.planes, self.board, self.squeeze_channels = planes, board, squeeze
        self.conv_channels, self.hidden_widths = list(convs), list(hidden)
        cells = board * board
        layers, channels = [], planes
        for c in convs:
            layers.append(nn.Conv2d(channels, c, 3, padding=1))
            channels = c
        self.convs = nn.ModuleList(layers)
        self.squeeze = nn.Conv2d(channels, squeeze, 1) if planes else None
        self.rest = inputs - planes * cells
        width = squeeze * cells + self.rest if planes else inputs
        # the standardisation of the dense part, fixed from the data
        self.register_buffer("mean", torch.zeros(self.rest if planes else inputs))
        self.register_buffer("scale", torch.ones(self.rest if planes else inputs))
        dense = []
        for h in hidden:
            dense.append(nn.Linear(width, h))
            width = h
        self.hidden = nn.ModuleList(dense)
        self.value = nn.Linear(width, players)
        self.policy = nn.Linear(width, policy) if policy else None

    def forward(self, x):
        """value logits [n, players], policy logits [n, space] or None."""
        if self.planes:
            cells = self.board * self.board
            p = x[:, :self.planes * cells].reshape(-1, self.planes, self.board, self.board)
            for conv in self.convs:
                p = torch.relu(conv(p))
            p = torch.relu(self.squeeze(p)).flatten(1)
            rest = (x[:, self.planes * cells:] - self.mean) * self.scale
            h = torch.cat([p, rest], 1)
        else:
            h = (x - self.mean) * self.scale
        for layer in self.hidden:
            h = torch.relu(layer(h))
        return self.value(h), (self.policy(h) if self.policy is not None else None)


def _floats(t, half):
    t = t.detach().to(torch.float32).contiguous().flatten()
    if half:
        return t.to(torch.float16).numpy().astype("<f2").tobytes()
    return t.numpy().astype("<f4").tobytes()


def folded(model):
    """The dense layers' (weight, bias) as the file holds them: the
    standardisation folded into the first, W' = W * scale and b' = b - W'
    mean on its columns of the dense part."""
    m = model
    first = m.hidden[0] if m.hidden_widths else m.value
    denses = list(m.hidden) + [m.value] + ([m.policy] if m.policy is not None else [])
    out = []
    with torch.no_grad():
        for layer in denses:
            w, b = layer.weight.clone().double(), layer.bias.clone().double()
            if layer is first:
                start = w.shape[1] - m.mean.numel()
                part = w[:, start:] * m.scale.double()
                b = b - part @ m.mean.double()
                w[:, start:] = part
            out.append((layer, w.float(), b.float()))
    return out


def round_to_half(model):
    """Make model exactly what a float16 file holds: the standardisation
    folded in (mean 0, scale 1 from now on) and every weight rounded to
    float16, so that torch and C compute the same net."""
    with torch.no_grad():
        for layer, w, b in folded(model):
            layer.weight.copy_(w.half().float())
            layer.bias.copy_(b.half().float())
        model.mean.zero_()
        model.scale.fill_(1)
        for p in list(model.convs.parameters()) + (
                list(model.squeeze.parameters()) if model.squeeze is not None else []):
            p.copy_(p.half().float())


def write(model, path, game_name, kind, half=True):
    """Write model as a weights file (float16 weights unless half=False;
    call round_to_half first so that the model is the file's net)."""
    m = model
    header = [VERSION, 2 if half else 4, KINDS[kind], m.inputs, m.planes, m.board, m.squeeze_channels,
              m.players, m.policy_size, len(m.conv_channels), len(m.hidden_widths)]
    header += m.conv_channels + m.hidden_widths
    name = game_name.encode()
    if len(name) >= 32:
        raise ValueError("game name too long: %r" % game_name)
    out = [MAGIC, struct.pack("<%di" % len(header), *header), name.ljust(32, b"\0")]
    with torch.no_grad():
        for conv in m.convs:
            out += [_floats(conv.weight, half), _floats(conv.bias, half)]
        if m.planes:
            out += [_floats(m.squeeze.weight.reshape(m.squeeze_channels, -1), half),
                    _floats(m.squeeze.bias, half)]
        for _, w, b in folded(m):
            out += [_floats(w, half), _floats(b, half)]
    with open(path, "wb") as f:
        f.write(b"".join(out))
