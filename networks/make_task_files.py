#!/usr/bin/env python3
"""Writes the networks' task files (networks/*.json) from layer-by-layer
descriptions of the networks: every layer is listed in network order, and
layers with the same generator and params are merged into one task whose
weight is the number of times the layer occurs. Run from anywhere:

    python3 networks/make_task_files.py            # rewrites networks/*.json

Layouts and param meanings: docs/operators.md (suite operators) and
generators/layers/*.cpp (act: 0 none, 1 relu, 2 gelu, 6 relu6; pool2d mode:
0 max, 1 average). Batch 1 everywhere. What is left out of each network is
said in its "description" (and in docs/tuning_networks.md).
"""
import collections
import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def out_size(h, k, s, p):
    return (h + 2 * p - k) // s + 1


class Net:
    def __init__(self, name, description):
        self.name, self.description = name, description
        self.layers = []  # (task name, generator, params)

    def add(self, name, generator, **params):
        self.layers.append((name, generator, params))

    def conv(self, h, ci, co, k, s, act, residual=0):
        p = k // 2
        self.add("conv%dx%d_%dx%d_%d_%d_s%d%s%s" % (k, k, h, h, ci, co, s, ["", "_relu", "", "", "", "", "_relu6"][act],
                                                   "_add" if residual else ""),
                 "conv2d_bias_act", N=1, H=h, W=h, CI=ci, CO=co, k=k, s=s, p=p, act=act, residual=residual)
        return out_size(h, k, s, p)

    def dw(self, h, c, s, act=6):
        self.add("dw3x3_%dx%d_%d_s%d" % (h, h, c, s), "depthwise_bias_act", N=1, H=h, W=h, C=c, k=3, s=s, p=1, act=act)
        return out_size(h, 3, s, 1)

    def tasks(self):
        merged = collections.OrderedDict()
        for name, gen, params in self.layers:
            key = (gen, tuple(sorted(params.items())))
            if key in merged:
                merged[key]["weight"] += 1
            else:
                merged[key] = {"name": name, "generator": gen, "params": params, "weight": 1}
        names = [t["name"] for t in merged.values()]
        assert len(names) == len(set(names)), "task names collide in " + self.name
        return list(merged.values())

    def write(self):
        tasks = self.tasks()
        doc = {"description": self.description, "network": self.name, "tasks": tasks}
        path = os.path.join(HERE, self.name + ".json")
        with open(path, "w") as f:
            f.write("{\n")
            f.write('  "description": %s,\n' % json.dumps(self.description))
            f.write('  "network": %s,\n' % json.dumps(self.name))
            f.write('  "tasks": [\n')
            f.write(",\n".join("    " + json.dumps(t) for t in tasks))
            f.write("\n  ]\n}\n")
        print("%s: %d layers, %d tasks" % (path, len(self.layers), len(tasks)))


def resnet50():
    n = Net("resnet50", "ResNet-50 v1.5 (torchvision: stride in the 3x3 conv), batch 1, 224x224, NHWC. "
            "Convolutions carry their folded batch norm as a bias, ReLU, and the residual add where the block ends. "
            "Weights = occurrences (53 convolutions, 2 pools, 1 dense).")
    h = n.conv(224, 3, 64, 7, 2, 1)  # stem
    n.add("maxpool3x3_112x112_64_s2", "pool2d", N=1, H=h, W=h, C=64, k=3, s=2, p=1, mode=0)
    h = out_size(h, 3, 2, 1)
    cin = 64
    for width, blocks, stride in ((64, 3, 1), (128, 4, 2), (256, 6, 2), (512, 3, 2)):
        for b in range(blocks):
            s = stride if b == 0 else 1
            n.conv(h, cin, width, 1, 1, 1)
            h2 = n.conv(h, width, width, 3, s, 1)
            if b == 0:  # projection shortcut: 1x1 conv + BN, no activation
                n.conv(h, cin, width * 4, 1, s, 0)
            n.conv(h2, width, width * 4, 1, 1, 1, residual=1)
            h, cin = h2, width * 4
    n.add("avgpool_7x7_2048", "pool2d", N=1, H=h, W=h, C=2048, k=h, s=1, p=0, mode=1)
    n.add("dense_2048_1000", "dense_bias_act", N=1, K=2048, M=1000, act=0)
    return n


def mobilenet_v2():
    n = Net("mobilenet_v2", "MobileNet-V2 (width 1.0), batch 1, 224x224, NHWC. Convolutions and depthwise "
            "convolutions carry their folded batch norm as a bias and ReLU6, except the linear projections; "
            "projections of blocks with a residual connection include the add. Weights = occurrences "
            "(35 pointwise/full convolutions, 17 depthwise, 1 pool, 1 dense).")
    h = n.conv(224, 3, 32, 3, 2, 6)
    cin = 32
    for t, c, reps, s in ((1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2), (6, 96, 3, 1), (6, 160, 3, 2),
                          (6, 320, 1, 1)):
        for r in range(reps):
            stride = s if r == 0 else 1
            hidden = cin * t
            if t != 1:
                n.conv(h, cin, hidden, 1, 1, 6)
            h2 = n.dw(h, hidden, stride)
            residual = 1 if stride == 1 and cin == c else 0
            n.conv(h2, hidden, c, 1, 1, 0, residual=residual)
            h, cin = h2, c
    n.conv(h, 320, 1280, 1, 1, 6)
    n.add("avgpool_7x7_1280", "pool2d", N=1, H=h, W=h, C=1280, k=h, s=1, p=0, mode=1)
    n.add("dense_1280_1000", "dense_bias_act", N=1, K=1280, M=1000, act=0)
    return n


def bert_base():
    n = Net("bert_base", "BERT-base encoder (12 layers, hidden 768, 12 heads, FFN 3072), batch 1, sequence 128. "
            "Per layer: Q, K, V and output projections (dense), QK^T with the row softmax (tbs; its 1/sqrt(64) "
            "scaling is not modelled), attention x V (gmm), two add & layer norm, FFN dense+GELU and dense. "
            "Embeddings (gathers) and the pooler are left out.")
    for _ in range(12):
        for _ in range(3):
            n.add("dense_128x768_768", "dense_bias_act", N=128, K=768, M=768, act=0)
        n.add("qk_softmax_12x128x128", "tbs", batch=1, seq=128, heads=12, dim=64)
        n.add("attn_v_12x128x64", "gmm", B=12, N=128, M=64, K=128)
        n.add("dense_128x768_768", "dense_bias_act", N=128, K=768, M=768, act=0)
        n.add("add_layernorm_128x768", "layer_norm", N=128, D=768, residual=1)
        n.add("dense_128x768_3072_gelu", "dense_bias_act", N=128, K=768, M=3072, act=2)
        n.add("dense_128x3072_768", "dense_bias_act", N=128, K=3072, M=768, act=0)
        n.add("add_layernorm_128x768", "layer_norm", N=128, D=768, residual=1)
    return n


def dcgan():
    n = Net("dcgan", "DCGAN generator (Radford et al.): z (100) projected to 4x4x1024 by a dense layer with ReLU, "
            "then four 4x4 stride-2 transposed convolutions to 8x8x512, 16x16x256, 32x32x128 and 64x64x3. "
            "The transposed convolutions are the suite's t2d, without the batch norm, ReLU and tanh epilogues.")
    n.add("dense_100_16384_relu", "dense_bias_act", N=1, K=100, M=4 * 4 * 1024, act=1)
    h, c = 4, 1024
    for co in (512, 256, 128, 3):
        n.add("t2d_%dx%d_%d_%d" % (h, h, c, co), "t2d", N=1, H=h, W=h, CI=c, CO=co, k=4, s=2, p=1)
        h, c = h * 2, co
    return n


def resnet3d_block():
    n = Net("resnet3d18_block", "The first block of 3D-ResNet-18's layer2 (Hara et al.), batch 1, input 8x28x28x64 "
            "(frames x height x width x channels): 3x3x3 stride-2 convolution 64->128, 3x3x3 convolution "
            "128->128, and the 1x1x1 stride-2 projection shortcut. The suite's c3d (no bias, activation or "
            "residual epilogue).")
    n.add("c3d_8x28x28_64_128_s2", "c3d", N=1, D=8, H=28, W=28, CI=64, CO=128, k=3, s=2, p=1)
    n.add("c3d_4x14x14_128_128", "c3d", N=1, D=4, H=14, W=14, CI=128, CO=128, k=3, s=1, p=1)
    n.add("c3d_8x28x28_64_128_1x1x1_s2", "c3d", N=1, D=8, H=28, W=28, CI=64, CO=128, k=1, s=2, p=0)
    return n


if __name__ == "__main__":
    for net in (resnet50(), mobilenet_v2(), bert_base(), dcgan(), resnet3d_block()):
        net.write()
