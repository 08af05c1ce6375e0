// The table member of each call and the role each of its parameters plays,
// for the consumers' handlers driven by a call's argument list (trace_args.h
// lists the arguments in the member's parameter order): a handle passed in, a
// handle the call creates, a config list, a string, a number. Replay and the
// C generator turn each role into a live value or C text (`passArgs`).
#pragma once

#include <cstddef>
#include <tuple>
#include <type_traits>
#include <utility>

#include "QnnInterface.h"
#include "trace/trace_args.h"

namespace qnn::trace {

// TableMember<Call::x>::ptr: &InterfaceTable2_39::x (every member of the list).
template <Call C>
struct TableMember;
#define QNN_TRACE_TABLE_MEMBER_(id, member, fn)                       \
  template <>                                                         \
  struct TableMember<Call::member> {                                  \
    static constexpr auto ptr = &sdk::InterfaceTable2_39::member;     \
  };
QNN_FOR_EACH_INTERFACE_MEMBER(QNN_TRACE_TABLE_MEMBER_)
#undef QNN_TRACE_TABLE_MEMBER_

enum class ParamRole { HandleIn, HandleOut, ConfigList, String, Number };

// The role of a parameter of type P (every Qnn_*Handle_t is a void*).
template <typename P>
constexpr ParamRole paramRole() {
  if constexpr (std::is_same_v<P, void*>) {
    return ParamRole::HandleIn;
  } else if constexpr (std::is_same_v<P, void**>) {
    return ParamRole::HandleOut;
  } else if constexpr (std::is_same_v<P, const char*>) {
    return ParamRole::String;
  } else if constexpr (std::is_enum_v<P> || std::is_arithmetic_v<P>) {
    return ParamRole::Number;
  } else {
    static_assert(std::is_class_v<std::remove_const_t<std::remove_pointer_t<std::remove_pointer_t<P>>>>,
                  "a parameter with no role: the call needs its own handler");
    return ParamRole::ConfigList;  // const Qnn..._Config_t**
  }
}

// The config struct of a ConfigList parameter.
template <typename P>
using ConfigOf = std::remove_const_t<std::remove_pointer_t<std::remove_pointer_t<P>>>;

// The parameter types of call C's member, as a tuple.
template <typename MemberPtr>
struct MemberParams;
template <typename R, typename... P>
struct MemberParams<R (*sdk::InterfaceTable2_39::*)(P...)> {
  using type = std::tuple<P...>;
};
template <Call C>
using ParamsOf = typename MemberParams<std::remove_const_t<decltype(TableMember<C>::ptr)>>::type;

// Calls f(std::integral_constant<size_t, I>, ParamType<I>* (null), args[I]) for
// each parameter of call C in order, its recorded argument beside it.
template <Call C, typename F, size_t... I>
void forEachParam(const Args<C>& args, F&& f, std::index_sequence<I...>) {
  const auto named = args.named();
  static_assert(named.size() == sizeof...(I), "the argument list names every parameter of the member");
  (f(std::integral_constant<size_t, I>{}, static_cast<std::tuple_element_t<I, ParamsOf<C>>*>(nullptr), named[I]), ...);
}
template <Call C, typename F>
void forEachParam(const Args<C>& args, F&& f) {
  forEachParam<C>(args, f, std::make_index_sequence<std::tuple_size_v<ParamsOf<C>>>{});
}

}  // namespace qnn::trace
