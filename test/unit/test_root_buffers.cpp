// The size of a Func's buffer at root (src/annotate/root_buffers.{h,cpp}).
#include "annotate/root_buffers.h"
#include "state/state.h"
#include "state/steps.h"
#include "test_pipelines.h"

#include <doctest/doctest.h>

using namespace ansor;
using namespace Halide;

TEST_CASE("root buffer bytes: the Func's region at root times its value's bytes, wherever it is computed") {
    // An upsampling Func read by a vertical stencil, over 1024 x 1023 floats.
    ImageParam in(Float(32), 2, "rin");
    in.dim(0).set_estimate(0, 512).dim(1).set_estimate(0, 1024);
    Var x("x"), y("y");
    Func up("rup"), out("rout");
    up(x, y) = in(x / 2, y) + in((x + 1) / 2, y);
    out(x, y) = up(x, y) + up(x, y + 1);
    out.set_estimate(x, 0, 1024).set_estimate(y, 0, 1023);
    PipelineDAG dag(ansor_test::Pipe{{out}}.functions(), 2);
    const std::string name = ansor_test::resolve(dag, "rup");

    // 1024 columns, 1024 rows (the stencil reads one row past its 1023).
    State at_root(dag);
    CHECK(root_buffer_bytes(at_root.replay(), name) == 1024 * 1024 * 4);
    State inlined(dag);
    inlined.add(std::make_shared<ComputeLocationStep>(name, Location{LocationKind::Inline, "", 0, ""}));
    CHECK(root_buffer_bytes(inlined.replay(), name) == 1024 * 1024 * 4);
}

TEST_CASE("root buffer bytes: a Tuple's values count whole") {
    ImageParam in(Float(32), 1, "tin");
    in.dim(0).set_estimate(0, 100);
    Var x("x");
    Func pair("tpair"), out("tout");
    pair(x) = Tuple(in(x), cast<uint8_t>(in(x)));
    out(x) = pair(x)[0] + cast<float>(pair(x)[1]);
    out.set_estimate(x, 0, 100);
    PipelineDAG dag(ansor_test::Pipe{{out}}.functions(), 2);
    CHECK(root_buffer_bytes(State(dag).replay(), ansor_test::resolve(dag, "tpair")) == 100 * 5);
}
