// Small substitutions written as JSON, for the tests.
#pragma once

#include "substitution.h"

#include <string>

namespace taso_test {

// A [m,k], B and C [k,n], D [n,p], s a scalar.
inline const char *kMatrixInputs =
    R"([{"name":"A","kind":"tensor","shape":["m","k"]},{"name":"B","kind":"tensor","shape":["k","n"]},)"
    R"({"name":"C","kind":"tensor","shape":["k","n"]},{"name":"D","kind":"tensor","shape":["n","p"]},)"
    R"({"name":"s","kind":"scalar","shape":[]}])";

// X [b,c,h,w], W1 W2 [c,c,3,3], W3 [c,c,1,1], I the identity kernel.
inline const char *kConvInputs =
    R"([{"name":"X","kind":"tensor","shape":["b","c","h","w"]},)"
    R"({"name":"W1","kind":"weight","shape":["c","c","3","3"]},{"name":"W2","kind":"weight","shape":["c","c","3","3"]},)"
    R"({"name":"W3","kind":"weight","shape":["c","c","1","1"]},)"
    R"({"name":"I","kind":"identity_kernel","shape":["c","c","1","1"]}])";

inline std::string document(const std::string &inputs, const std::string &source, const std::string &target,
                            const std::string &outputs) {
    return R"({"format":"ansor-taso-substitutions","version":1,"substitutions":[{"family":"test","inputs":)" +
           inputs + R"(,"source":)" + source + R"(,"target":)" + target + R"(,"outputs":)" + outputs + "}]}";
}

// One substitution; source and target are {"ops": [...], "outputs": [...]}.
inline taso::Substitution make_sub(const std::string &inputs, const std::string &source, const std::string &target,
                                   const std::string &outputs = "[[0,0]]") {
    return taso::parse_substitutions(document(inputs, source, target, outputs), "test").at(0);
}

}  // namespace taso_test
