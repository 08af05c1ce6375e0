// Fills the table with the Saver's entries (saver_api.h), one per member of
// core/api_members.h.
#pragma once

#include "saver_api.h"

namespace qnn::saver {

inline void fillTable(QNN_INTERFACE_VER_TYPE& t) {
#define QNN_SAVER_FILL_(id, member, name) t.member = member;
  QNN_FOR_EACH_INTERFACE_MEMBER(QNN_SAVER_FILL_)
#undef QNN_SAVER_FILL_
}

}  // namespace qnn::saver
