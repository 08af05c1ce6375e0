// Members of the function table added after API 2.7. Those the runtime does not
// implement yet answer QNN_COMMON_ERROR_NOT_SUPPORTED and say so in the log.
#pragma once

#include "runtime/api_table.h"

namespace qnn::sdk {

template <RuntimeAccessor rt>
template <typename Table>
void ApiTable<rt>::fillNewerMembers(Table&) {}

}  // namespace qnn::sdk
