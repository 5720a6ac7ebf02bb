#!/usr/bin/python3
"""Writes the graph files of graph/networks/ (format: docs/graph.md).

    /usr/bin/python3 graph/networks/make_graphs.py      # rewrites every *.json here

Batch 1 everywhere. Convolutions followed by batch norm are written with
the norm folded into the convolution's bias (as inference engines run them),
except in the small test networks, which keep explicit batch_norm nodes.
"""
import json
import os


def out_size(n, k, s, p, d=1):
    return (n + 2 * p - d * (k - 1) - 1) // s + 1


class Graph:
    def __init__(self, name, description):
        self.name, self.description = name, description
        self.inputs, self.weights, self.nodes, self.outputs = [], [], [], []
        self.shapes = {}
        self.count = {}

    def fresh(self, stem):
        self.count[stem] = self.count.get(stem, 0) + 1
        return "%s%d" % (stem, self.count[stem])

    def input(self, name, shape, layout=None):
        e = {"name": name, "shape": list(shape)}
        if layout:
            e["layout"] = layout
        self.inputs.append(e)
        self.shapes[name] = list(shape)
        # An NCHW input is converted before the first convolution (the loader does it).
        if layout == "NCHW":
            n, c, h, w = shape
            self.shapes[name] = [n, h, w, c]
        return name

    def weight(self, name, shape, init=None, rng=None):
        e = {"name": name, "shape": list(shape)}
        if init:
            e["init"] = init
        if rng:
            e["range"] = list(rng)
        self.weights.append(e)
        self.shapes[name] = list(shape)
        return name

    def node(self, op, inputs, out_shapes, attrs=None, stem=None):
        name = self.fresh(stem or op)
        outs = [name if len(out_shapes) == 1 else "%s_%d" % (name, i) for i in range(len(out_shapes))]
        e = {"name": name, "op": op, "inputs": list(inputs), "outputs": outs}
        if attrs:
            e["attrs"] = attrs
        self.nodes.append(e)
        for o, s in zip(outs, out_shapes):
            self.shapes[o] = list(s)
        return outs[0] if len(outs) == 1 else outs

    # ---- layers ---------------------------------------------------------
    def conv(self, x, co, k, s=1, p=None, groups=1, act="relu", bias=True, dil=1, stem="conv"):
        kh, kw = (k, k) if isinstance(k, int) else k
        ph, pw = ((kh - 1) // 2 * dil, (kw - 1) // 2 * dil) if p is None else ((p, p) if isinstance(p, int) else p)
        n, h, w, ci = self.shapes[x]
        name = self.fresh(stem)
        wt = self.weight(name + "_w", [kh, kw, ci // groups, co])
        ins = [x, wt]
        if bias:
            ins.append(self.weight(name + "_b", [co]))
        attrs = {}
        if s != 1:
            attrs["stride"] = s
        if (ph, pw) != (0, 0):
            attrs["padding"] = ph if ph == pw else [ph, pw]
        if dil != 1:
            attrs["dilation"] = dil
        if groups != 1:
            attrs["groups"] = groups
        if act != "none":
            attrs["activation"] = act
        e = {"name": name, "op": "conv2d", "inputs": ins, "outputs": [name], "attrs": attrs}
        self.nodes.append(e)
        self.shapes[name] = [n, out_size(h, kh, s, ph, dil), out_size(w, kw, s, pw, dil), co]
        return name

    def conv_transpose(self, x, co, k, s, p):
        n, h, w, ci = self.shapes[x]
        wt = self.weight(self.fresh("deconv_w"), [k, k, ci, co])
        return self.node("conv2d_transpose", [x, wt], [[n, (h - 1) * s - 2 * p + k, (w - 1) * s - 2 * p + k, co]],
                         {"stride": s, "padding": p}, stem="deconv")

    def batch_norm(self, x):
        c = self.shapes[x][-1]
        stem = self.fresh("bn")
        ws = [self.weight(stem + "_gamma", [c], "uniform", [0.5, 1.5]),
              self.weight(stem + "_beta", [c], "uniform", [-0.1, 0.1]),
              self.weight(stem + "_mean", [c], "uniform", [-0.1, 0.1]),
              self.weight(stem + "_var", [c], "uniform", [0.5, 1.5])]
        return self.node("batch_norm", [x] + ws, [self.shapes[x]], stem=stem + "_")

    def unary(self, op, x):
        return self.node(op, [x], [self.shapes[x]])

    def add(self, a, b):
        return self.node("add", [a, b], [self.shapes[a]])

    def mul(self, a, b):
        return self.node("mul", [a, b], [self.shapes[a]])

    def pool(self, x, kind, k=None, s=None, p=0, glob=False):
        n, h, w, c = self.shapes[x]
        if glob:
            return self.node(kind + "_pool2d", [x], [[n, 1, 1, c]], {"global": True})
        s = s or k
        attrs = {"kernel": k, "stride": s}
        if p:
            attrs["padding"] = p
        return self.node(kind + "_pool2d", [x], [[n, out_size(h, k, s, p), out_size(w, k, s, p), c]], attrs)

    def concat(self, xs, axis=-1):
        shape = list(self.shapes[xs[0]])
        shape[axis] = sum(self.shapes[x][axis] for x in xs)
        return self.node("concat", xs, [shape], {"axis": axis})

    def split(self, x, sizes, axis=-1):
        outs = []
        for sz in sizes:
            s = list(self.shapes[x])
            s[axis] = sz
            outs.append(s)
        return self.node("split", [x], outs, {"axis": axis, "sizes": sizes})

    def reshape(self, x, shape):
        return self.node("reshape", [x], [shape], {"shape": shape})

    def transpose(self, x, perm):
        return self.node("transpose", [x], [[self.shapes[x][p] for p in perm]], {"perm": perm})

    def dense(self, x, m, act="none", bias=True):
        k = self.shapes[x][-1]
        name = self.fresh("fc")
        ins = [x, self.weight(name + "_w", [k, m])]
        if bias:
            ins.append(self.weight(name + "_b", [m]))
        e = {"name": name, "op": "dense", "inputs": ins, "outputs": [name]}
        if act != "none":
            e["attrs"] = {"activation": act}
        self.nodes.append(e)
        self.shapes[name] = self.shapes[x][:-1] + [m]
        return name

    def batch_matmul(self, a, b):
        sa, sb = self.shapes[a], self.shapes[b]
        return self.node("batch_matmul", [a, b], [[sa[0], sa[1], sb[2]]], stem="bmm")

    def softmax(self, x):
        return self.node("softmax", [x], [self.shapes[x]])

    def layer_norm(self, x):
        d = self.shapes[x][-1]
        stem = self.fresh("ln")
        g = self.weight(stem + "_gamma", [d], "uniform", [0.5, 1.5])
        b = self.weight(stem + "_beta", [d], "uniform", [-0.1, 0.1])
        return self.node("layer_norm", [x, g, b], [self.shapes[x]], stem=stem + "_")

    def enlarge(self, w, k):
        s = self.shapes[w]
        return self.node("enlarge", [w], [[k, k, s[2], s[3]]], {"kernel": k})

    def classifier(self, x, classes):
        x = self.pool(x, "avg", glob=True)
        x = self.reshape(x, [1, self.shapes[x][-1]])
        return self.dense(x, classes)

    def json(self):
        return {"name": self.name, "description": self.description, "inputs": self.inputs,
                "weights": self.weights, "nodes": self.nodes, "outputs": self.outputs}


# ---- small test networks (graph/test runs them end to end) -----------------
def tiny_cnn():
    g = Graph("tiny_cnn", "Test network: conv -> batch norm -> relu -> split -> two convs -> concat -> max pool "
              "-> global average pool -> dense -> softmax.")
    x = g.input("image", [1, 10, 10, 3])
    c = g.conv(x, 8, 3, p=1, act="none", bias=False)
    c = g.unary("relu", g.batch_norm(c))
    a, b = g.split(c, [3, 5])
    a = g.conv(a, 4, 1, act="relu6")
    b = g.conv(b, 6, 3, p=1)
    c = g.pool(g.concat([a, b]), "max", 3, 2, 1)
    g.outputs = [g.softmax(g.dense(g.reshape(g.pool(c, "avg", glob=True), [1, 10]), 5))]
    return g


def tiny_ops():
    g = Graph("tiny_ops", "Test network: every operator tiny_cnn does not use: an NCHW input (converted), "
              "grouped, depthwise, dilated, rectangular and transposed convolutions, enlarge, mul, sigmoid, "
              "gelu, relu6, average pooling with padding, matmul without bias, transpose.")
    x = g.input("image", [1, 4, 9, 9], layout="NCHW")
    c = g.conv(x, 8, 3, p=1, act="relu6")
    d = g.conv(c, 8, 3, p=1, groups=8, act="relu6")             # depthwise
    e = g.conv(c, 8, 3, p=2, groups=2, dil=2, act="none")        # grouped, dilated
    f = g.conv(c, 8, (1, 3), p=(0, 1), act="gelu")               # rectangular
    w = g.weight("small_w", [1, 1, 8, 8])
    big = g.enlarge(w, 3)                                         # 1x1 -> 3x3
    h = g.node("conv2d", [c, big], [g.shapes[c]], {"padding": 1}, stem="conv_enlarged")
    m = g.add(g.mul(d, g.unary("sigmoid", e)), g.add(f, h))
    m = g.pool(m, "avg", 3, 1, 1)
    t = g.conv_transpose(m, 4, 4, 2, 1)                           # 9x9 -> 18x18
    t = g.unary("relu6", g.unary("gelu", t))
    r = g.reshape(t, [18 * 18, 4])
    g.outputs = [t, g.transpose(g.node("matmul", [r, g.weight("mm_w", [4, 6])], [[18 * 18, 6]]), [1, 0])]
    return g


def encoder_layer(g, x, seq, hidden, heads, ffn):
    dh = hidden // heads

    def heads_first(t):  # [seq, hidden] -> [heads, seq, dh]
        return g.transpose(g.reshape(t, [seq, heads, dh]), [1, 0, 2])

    q = heads_first(g.dense(x, hidden))
    k = g.transpose(g.reshape(g.dense(x, hidden), [seq, heads, dh]), [1, 2, 0])  # [heads, dh, seq]
    v = heads_first(g.dense(x, hidden))
    # The 1/sqrt(head_dim) scaling: a mul by a constant tensor (init uniform
    # over [c, c]), shared by every layer. Without it the scores grow large and
    # the softmax turns float32 rounding into visible error after a few layers.
    scale = "attn_scale_%dx%dx%d" % (heads, seq, seq)
    if scale not in g.shapes:
        c = 1.0 / dh ** 0.5
        g.weight(scale, [heads, seq, seq], "uniform", [c, c])
    p = g.softmax(g.mul(g.batch_matmul(q, k), scale))
    a = g.batch_matmul(p, v)                                          # [heads, seq, dh]
    a = g.reshape(g.transpose(a, [1, 0, 2]), [seq, hidden])
    x = g.layer_norm(g.add(g.dense(a, hidden), x))
    f = g.dense(g.dense(x, ffn, act="gelu"), hidden)
    return g.layer_norm(g.add(f, x))


def tiny_transformer():
    g = Graph("tiny_transformer", "Test network: one BERT encoder layer, sequence 8, hidden 16, 2 heads, FFN 32.")
    g.outputs = [encoder_layer(g, g.input("tokens", [8, 16]), 8, 16, 2, 32)]
    return g


# ---- networks ---------------------------------------------------------------
def resnet50():
    g = Graph("resnet50", "ResNet-50 v1 (He et al.), 224x224, batch 1; batch norms folded into the convolutions' "
              "biases; the residual add and its ReLU are separate nodes.")
    x = g.conv(g.input("image", [1, 224, 224, 3]), 64, 7, s=2, p=3)
    x = g.pool(x, "max", 3, 2, 1)
    for stage, (blocks, width) in enumerate([(3, 64), (4, 128), (6, 256), (3, 512)]):
        for b in range(blocks):
            s = 2 if b == 0 and stage > 0 else 1
            y = g.conv(x, width, 1)
            y = g.conv(y, width, 3, s=s)
            y = g.conv(y, width * 4, 1, act="none")
            short = g.conv(x, width * 4, 1, s=s, act="none") if b == 0 else x
            x = g.unary("relu", g.add(y, short))
    g.outputs = [g.classifier(x, 1000)]
    return g


def mobilenet_v2():
    g = Graph("mobilenet_v2", "MobileNet-V2 (Sandler et al.), 224x224, batch 1, width 1.0; batch norms folded.")
    x = g.conv(g.input("image", [1, 224, 224, 3]), 32, 3, s=2, act="relu6")
    ci = 32
    for t, c, n, s in [(1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                       (6, 320, 1, 1)]:
        for i in range(n):
            stride = s if i == 0 else 1
            y = x if t == 1 else g.conv(x, ci * t, 1, act="relu6")
            y = g.conv(y, ci * t, 3, s=stride, groups=ci * t, act="relu6")
            y = g.conv(y, c, 1, act="none")
            x = g.add(y, x) if stride == 1 and ci == c else y
            ci = c
    x = g.conv(x, 1280, 1, act="relu6")
    g.outputs = [g.classifier(x, 1000)]
    return g


def bert_base():
    g = Graph("bert_base", "BERT-base encoder (12 layers, hidden 768, 12 heads, FFN 3072), batch 1, sequence 128; "
              "embeddings and pooler left out; the attention's 1/sqrt(64) scaling is a mul by a constant tensor.")
    x = g.input("embeddings", [128, 768])
    for _ in range(12):
        x = encoder_layer(g, x, 128, 768, 12, 3072)
    g.outputs = [x]
    return g


def dcgan():
    g = Graph("dcgan", "DCGAN generator (Radford et al.), batch 1: z (100) -> dense 4x4x1024 + ReLU -> four 4x4 "
              "stride-2 transposed convolutions (ReLU between; batch norms and the final tanh left out) -> 64x64x3.")
    x = g.dense(g.input("z", [1, 100]), 4 * 4 * 1024, act="relu")
    x = g.reshape(x, [1, 4, 4, 1024])
    g.nodes[-1]["attrs"]["layout"] = "NHWC"
    for co in [512, 256, 128]:
        x = g.unary("relu", g.conv_transpose(x, co, 4, 2, 1))
    g.outputs = [g.conv_transpose(x, 3, 4, 2, 1)]
    return g


def squeezenet():
    g = Graph("squeezenet", "SqueezeNet 1.1 (Iandola et al.) as in TASO's evaluation, 224x224, batch 1: fire modules "
              "(squeeze 1x1, expand 1x1 and 3x3, concat).")
    x = g.conv(g.input("image", [1, 224, 224, 3]), 64, 3, s=2, p=0)
    x = g.pool(x, "max", 3, 2)

    def fire(x, s, e):
        sq = g.conv(x, s, 1)
        return g.concat([g.conv(sq, e, 1), g.conv(sq, e, 3)])

    x = fire(fire(x, 16, 64), 16, 64)
    x = g.pool(x, "max", 3, 2)
    x = fire(fire(x, 32, 128), 32, 128)
    x = g.pool(x, "max", 3, 2)
    for s, e in [(48, 192), (48, 192), (64, 256), (64, 256)]:
        x = fire(x, s, e)
    x = g.conv(x, 1000, 1)
    x = g.pool(x, "avg", glob=True)
    g.outputs = [g.reshape(x, [1, 1000])]
    return g


def resnext50():
    g = Graph("resnext50", "ResNeXt-50 32x4d (Xie et al.) as in TASO's evaluation, 224x224, batch 1: the stem and the "
              "four stages of bottleneck blocks with 32-group 3x3 convolutions; batch norms folded.")
    x = g.conv(g.input("image", [1, 224, 224, 3]), 64, 7, s=2, p=3)
    x = g.pool(x, "max", 3, 2, 1)
    for stage, (blocks, width, out) in enumerate([(3, 128, 256), (4, 256, 512), (6, 512, 1024), (3, 1024, 2048)]):
        for b in range(blocks):
            s = 2 if b == 0 and stage > 0 else 1
            y = g.conv(x, width, 1)
            y = g.conv(y, width, 3, s=s, groups=32)
            y = g.conv(y, out, 1, act="none")
            short = g.conv(x, out, 1, s=s, act="none") if b == 0 else x
            x = g.unary("relu", g.add(y, short))
    g.outputs = [g.classifier(x, 1000)]
    return g


def inception_v3():
    g = Graph("inception_v3", "Inception-v3 (Szegedy et al.) as in TASO's evaluation, 299x299, batch 1; batch norms "
              "folded; average pools count padding (count_include_pad).")
    c = g.conv
    x = c(g.input("image", [1, 299, 299, 3]), 32, 3, s=2, p=0)
    x = c(c(x, 32, 3, p=0), 64, 3)
    x = g.pool(x, "max", 3, 2)
    x = g.pool(c(c(x, 80, 1), 192, 3, p=0), "max", 3, 2)
    for pf in [32, 64, 64]:  # InceptionA
        b1 = c(x, 64, 1)
        b5 = c(c(x, 48, 1), 64, 5)
        b3 = c(c(c(x, 64, 1), 96, 3), 96, 3)
        bp = c(g.pool(x, "avg", 3, 1, 1), pf, 1)
        x = g.concat([b1, b5, b3, bp])
    b3 = c(x, 384, 3, s=2, p=0)  # InceptionB
    bd = c(c(c(x, 64, 1), 96, 3), 96, 3, s=2, p=0)
    x = g.concat([b3, bd, g.pool(x, "max", 3, 2)])
    for c7 in [128, 160, 160, 192]:  # InceptionC
        b1 = c(x, 192, 1)
        b7 = c(c(c(x, c7, 1), c7, (1, 7)), 192, (7, 1))
        bd = c(c(c(c(c(x, c7, 1), c7, (7, 1)), c7, (1, 7)), c7, (7, 1)), 192, (1, 7))
        bp = c(g.pool(x, "avg", 3, 1, 1), 192, 1)
        x = g.concat([b1, b7, bd, bp])
    b3 = c(c(x, 192, 1), 320, 3, s=2, p=0)  # InceptionD
    b7 = c(c(c(c(x, 192, 1), 192, (1, 7)), 192, (7, 1)), 192, 3, s=2, p=0)
    x = g.concat([b3, b7, g.pool(x, "max", 3, 2)])
    for _ in range(2):  # InceptionE
        b1 = c(x, 320, 1)
        b3 = c(x, 384, 1)
        b3 = g.concat([c(b3, 384, (1, 3)), c(b3, 384, (3, 1))])
        bd = c(c(x, 448, 1), 384, 3)
        bd = g.concat([c(bd, 384, (1, 3)), c(bd, 384, (3, 1))])
        bp = c(g.pool(x, "avg", 3, 1, 1), 192, 1)
        x = g.concat([b1, b3, bd, bp])
    g.outputs = [g.classifier(x, 1000)]
    return g


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    for make in [tiny_cnn, tiny_ops, tiny_transformer, resnet50, mobilenet_v2, bert_base, dcgan, squeezenet,
                 resnext50, inception_v3]:
        g = make()
        path = os.path.join(here, g.name + ".json")
        with open(path, "w") as f:
            # One node, input or weight per line: readable, and diffs stay small.
            d = g.json()
            f.write("{\n")
            f.write('  "name": %s,\n  "description": %s,\n' % (json.dumps(d["name"]), json.dumps(d["description"])))
            for key in ["inputs", "weights", "nodes"]:
                f.write('  "%s": [\n' % key)
                f.write(",\n".join("    " + json.dumps(e) for e in d[key]))
                f.write("\n  ],\n")
            f.write('  "outputs": %s\n}\n' % json.dumps(d["outputs"]))
        print("%-18s %4d nodes %4d weights -> %s" % (g.name, len(d["nodes"]), len(d["weights"]), path))


if __name__ == "__main__":
    main()
