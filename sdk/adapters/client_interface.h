// Function tables for clients built against QNN headers older than API 2.14, built over a
// library's current (API 2.32) table. The version decides the layout; nothing outside
// sdk/adapters knows about old layouts.
#pragma once

#include <cstddef>
#include <cstdint>

#include "QnnInterface.h"
#include "System/QnnSystemInterface.h"
#include "core/api_members.h"

namespace qnn::adapters {

// Providers for a client of core API <major>.<minor> over `current` (the library's single
// provider). Minor >= 14: `current` itself. Minor 9..13: the >= 2.9 member order truncated to
// 55 members, reported as 2.13.0. Minor 7: the 2.7 order (44 members), reported as 2.7.2.
// Minor 39: `v2_39` (the library's 2.39 provider) when given. Other versions (major != 2,
// minor < 7, minor 8, 33..38, newer than 39): an error, logged.
// The returned list has one provider and lives as long as the library.
Qnn_ErrorHandle_t providersForClient(const QnnInterface_t& current, uint32_t major, uint32_t minor,
                                     const void*** providerList, uint32_t* numProviders,
                                     const sdk::Interface2_39* v2_39 = nullptr);

// Same for the system library: clients before system API 1.2 (core API < 2.14) get the
// four-member 1.1 table whose binary info describes graphs with their own tensor layout.
Qnn_ErrorHandle_t systemProvidersForClient(const QnnSystemInterface_t& current, uint32_t major, uint32_t minor,
                                           const void*** providerList, uint32_t* numProviders);

// Parses QNN_OPENQNN_CLIENT_API ("2.<minor>"): true and the minor when set and valid;
// false when unset; a malformed value is logged and ignored.
bool clientApiFromEnvironment(uint32_t* major, uint32_t* minor);

// A client built against API 2.7 or 2.8 headers that got the current table reads it in its own
// member order: its logCreate(callback, level, &logger) -- usually its first call -- lands on
// slot 23, tensorCreateContextTensor(context, tensor), with a log level (1..5) where the tensor
// pointer goes, which no current client can pass (no object lives at address 1..5).
// True when `tensor` is such a level; the first time, says on stderr (no log callback can exist
// yet for such a client) which library or QNN_OPENQNN_CLIENT_API serves it.
bool olderClientCalledLogCreate(const void* tensor);
// Members of QNN_INTERFACE_VER_TYPE in the headers of core API 2.<minor> (the API timeline's
// facts); 0 for a minor whose table is not known (2.33 .. 2.38,
// newer than 2.39). 2.7 and 2.8 hold their members in an older order.
size_t interfaceMembersForMinor(uint32_t minor);
// The oldest minor whose table has `members` members, 0 if none. 55 members are both 2.13
// (120-byte tensors) and 2.14 (144-byte tensors): *ambiguous is set then, and 13 returned.
uint32_t minorForInterfaceMembers(size_t members, bool* ambiguous);

}  // namespace qnn::adapters

// Exported by every OpenQNN library: the compat shims under
// lib/x86_64-linux-clang/compat/api-2.<minor>/ call these on the real library.
extern "C" {
QNN_API Qnn_ErrorHandle_t OpenQnn_getProvidersForClientApi(uint32_t major, uint32_t minor,
                                                           const void*** providerList, uint32_t* numProviders);
QNN_API Qnn_ErrorHandle_t OpenQnn_getSystemProvidersForClientApi(uint32_t major, uint32_t minor,
                                                                 const void*** providerList,
                                                                 uint32_t* numProviders);
}
