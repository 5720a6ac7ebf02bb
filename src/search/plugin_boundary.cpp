#include "search/plugin_boundary.h"

#include "state/loop_nest.h"
#include "util/errors.h"

#include <Halide.h>
#include <cxxabi.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <memory>
#include <new>
#include <typeinfo>

namespace ansor {

namespace {

std::string type_name(const std::type_info *type) {
    if (!type) return "unknown type";
    int status = 0;
    std::unique_ptr<char, void (*)(void *)> name(abi::__cxa_demangle(type->name(), nullptr, nullptr, &status),
                                                 std::free);
    return status == 0 && name ? std::string(name.get()) : std::string(type->name());
}

const char *const internal = " (an internal error of the Ansor plugin; please report it with the pipeline)";

}  // namespace

std::string describe_exception(const std::exception_ptr &e) {
    try {
        std::rethrow_exception(e);
    } catch (const UserError &u) {
        return u.what();
    } catch (const std::bad_alloc &b) {
        return "out of memory while scheduling (" + type_name(&typeid(b)) + "); free memory, or lower "
               "HL_ANSOR_POPULATION or HL_ANSOR_BUILDERS";
    } catch (const InvalidState &s) {
        return std::string("invalid schedule state (ansor::InvalidState): ") + s.what() + internal;
    } catch (const nlohmann::json::exception &j) {
        return "JSON error (" + type_name(&typeid(j)) + "): " + j.what() + internal;
    } catch (const Halide::Error &h) {
        return "Halide error (" + type_name(&typeid(h)) + "): " + h.what();
    } catch (const std::exception &x) {
        return "internal error (" + type_name(&typeid(x)) + "): " + x.what() + internal;
    } catch (...) {
        return "internal error: an exception of type " + type_name(abi::__cxa_current_exception_type()) +
               ", not a std::exception" + internal;
    }
}

void with_halide_user_errors(const std::function<void()> &body) {
    std::string message;
    try {
        body();
        return;
    } catch (...) {
        message = describe_exception(std::current_exception());
    }
    // Outside the handler: Halide throws its own error from here.
    Halide::Internal::ErrorReport(__FILE__, __LINE__, nullptr, Halide::Internal::ErrorReport::User)
        << "Ansor autoscheduler: " << message << "\n";
}

}  // namespace ansor
