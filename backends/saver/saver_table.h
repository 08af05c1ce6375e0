// Fills the table with the Saver's entries (saver_api.h), one per member of
// core/api_members.h, each through its `Entry` so it records under its own id.
#pragma once

#include "saver_api.h"
#include "saver_call.h"

namespace qnn::saver {

inline void fillTable(QNN_INTERFACE_VER_TYPE& t) {
#define QNN_SAVER_FILL_(id, member, name) t.member = &Entry<trace::Call::member, &member>::call;
  QNN_FOR_EACH_INTERFACE_MEMBER(QNN_SAVER_FILL_)
#undef QNN_SAVER_FILL_
}

}  // namespace qnn::saver
