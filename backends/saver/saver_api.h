// The Saver's entries, one per member of core/api_members.h, declared with the
// table's own function types so a signature cannot drift. Defined in
// saver_api_*.cpp by API group (a member added to the list needs its recorder
// there, or the library does not link).
#pragma once

#include <type_traits>

#include "QnnInterface.h"
#include "core/api_members.h"

namespace qnn::saver {

#define QNN_SAVER_DECLARE_(id, member, fn) std::remove_pointer_t<decltype(sdk::InterfaceTable2_39::member)> member;
QNN_FOR_EACH_INTERFACE_MEMBER(QNN_SAVER_DECLARE_)
#undef QNN_SAVER_DECLARE_

}  // namespace qnn::saver
