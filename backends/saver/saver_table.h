// Fills the table with the Saver's entries (saver_api.h), one per member of
// core/api_members.h (all 75 of API 2.39), each through its `Entry` so it
// records under its own id. The 2.32 provider takes the first 71.
#pragma once

#include "saver/saver_api.h"
#include "saver/saver_call.h"

namespace qnn::saver {

inline void fillTable(sdk::InterfaceTable2_39& t) {
#define QNN_SAVER_FILL_(id, member, fn) t.member = &Entry<trace::Call::member, &member>::call;
  QNN_FOR_EACH_INTERFACE_MEMBER(QNN_SAVER_FILL_)
#undef QNN_SAVER_FILL_
}

}  // namespace qnn::saver
