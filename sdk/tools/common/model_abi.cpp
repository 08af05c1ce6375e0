#include "tools/common/model_abi.h"

#include <dlfcn.h>
#include <link.h>

#include <cstdlib>
#include <cstring>
#include <set>

#include "adapters/client_interface.h"
#include "tools/common/tool_error.h"

namespace qnn::tools {
namespace {

int32_t le32(const uint8_t* p) {
  int32_t v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// True when the opcode bytes ending just before `modrm` load an 8- or 32-bit operand from
// memory: mov r8,m8 (8A), movzx/movsx r,m8 (0F B6 / 0F BE), the r/m8-immediate groups (80, F6),
// test m8,r8 (84), cmp r8,m8 / m8,r8 (38, 3A), and mov r32,m32 (8B without REX.W). A bool
// argument is read with one of these (clang: a byte, gcc: 32 bits); the table's members are
// pointers, read 64 bits wide.
bool narrowLoadBefore(const uint8_t* code, size_t modrm) {
  if (modrm < 1) return false;
  const uint8_t op = code[modrm - 1];
  if (op == 0x8A || op == 0x80 || op == 0xF6 || op == 0x84 || op == 0x38 || op == 0x3A) return true;
  if (op == 0x8B) return modrm < 2 || (code[modrm - 2] & 0xF8) != 0x48;
  return modrm >= 2 && code[modrm - 2] == 0x0F && (op == 0xB6 || op == 0xBE);
}

// The canonical frame address rule at each instruction of one function, from the unwind table
// (.eh_frame) the compilers emit by default on x86_64: CFA = <reg> + <offset>, where CFA is
// the caller's stack pointer before the call, i.e. the address of the first stack argument.
struct CfaRow {
  uintptr_t pc;
  int reg;  // DWARF register: 7 = rsp, 6 = rbp; -1 = not a register + offset rule
  int64_t offset;
};

class Reader {
 public:
  Reader(const uint8_t* p, const uint8_t* end) : p_(p), end_(end) {}
  bool ok() const { return ok_; }
  const uint8_t* pos() const { return p_; }
  void skip(size_t n) { n <= size_t(end_ - p_) ? void(p_ += n) : fail(); }
  template <typename T>
  T fixed() {
    T v{};
    if (sizeof(T) > size_t(end_ - p_)) return fail(), v;
    std::memcpy(&v, p_, sizeof v);
    p_ += sizeof v;
    return v;
  }
  uint64_t uleb() {
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const uint8_t b = fixed<uint8_t>();
      v |= uint64_t(b & 0x7F) << shift;
      if (!(b & 0x80) || !ok_) return v;
    }
    return fail(), v;
  }
  int64_t sleb() {
    int64_t v = 0;
    int shift = 0;
    uint8_t b = 0;
    do {
      b = fixed<uint8_t>();
      v |= int64_t(b & 0x7F) << shift;
      shift += 7;
    } while ((b & 0x80) && ok_ && shift < 64);
    if (shift < 64 && (b & 0x40)) v |= -(int64_t(1) << shift);
    return v;
  }
  // A pointer in DW_EH_PE encoding; only absolute/pc-relative 4- and 8-byte forms occur here.
  uintptr_t pointer(uint8_t enc) {
    const uintptr_t here = reinterpret_cast<uintptr_t>(p_);
    uintptr_t v = 0;
    switch (enc & 0x0F) {
      case 0x00: case 0x04: case 0x0C: v = fixed<uint64_t>(); break;
      case 0x03: v = fixed<uint32_t>(); break;
      case 0x0B: v = uintptr_t(intptr_t(fixed<int32_t>())); break;
      default: return fail(), 0;
    }
    if ((enc & 0x70) == 0x10) v += here;
    else if ((enc & 0x70) != 0) fail();
    return v;
  }
  void fail() { ok_ = false, p_ = end_; }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
  bool ok_ = true;
};

struct Lookup {
  uintptr_t fn;
  const uint8_t* hdr = nullptr;
};

int findEhFrameHdr(dl_phdr_info* info, size_t, void* data) {
  auto* l = static_cast<Lookup*>(data);
  const ElfW(Phdr)* hdr = nullptr;
  bool contains = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const ElfW(Phdr)& ph = info->dlpi_phdr[i];
    const uintptr_t start = info->dlpi_addr + ph.p_vaddr;
    if (ph.p_type == PT_LOAD && l->fn >= start && l->fn < start + ph.p_memsz) contains = true;
    if (ph.p_type == PT_GNU_EH_FRAME) hdr = &ph;
  }
  if (!contains) return 0;
  if (hdr) l->hdr = reinterpret_cast<const uint8_t*>(info->dlpi_addr + hdr->p_vaddr);
  return 1;
}

// The rows of `fn`'s frame description, or empty when there is none that this reader follows.
std::vector<CfaRow> cfaRows(uintptr_t fn) {
  Lookup l{fn};
  dl_iterate_phdr(findEhFrameHdr, &l);
  if (!l.hdr || l.hdr[0] != 1) return {};
  const uint8_t* unbounded = l.hdr + (size_t(1) << 30);
  Reader h(l.hdr + 4, unbounded);
  h.pointer(l.hdr[1]);  // eh_frame_ptr
  if (l.hdr[2] != 0x03 || l.hdr[3] != 0x3B) return {};  // udata4 count, datarel sdata4 table
  const uint32_t count = h.fixed<uint32_t>();
  const auto* table = reinterpret_cast<const int32_t*>(h.pos());
  // Binary search for the last entry starting at or before fn.
  uint32_t lo = 0, hi = count;
  while (hi - lo > 1) {
    const uint32_t mid = (lo + hi) / 2;
    if (uintptr_t(l.hdr) + intptr_t(table[2 * mid]) <= fn) lo = mid;
    else hi = mid;
  }
  if (count == 0 || uintptr_t(l.hdr) + intptr_t(table[2 * lo]) > fn) return {};
  const uint8_t* fde = l.hdr + table[2 * lo + 1];
  Reader f(fde, unbounded);
  const uint32_t fdeLength = f.fixed<uint32_t>();
  if (fdeLength == 0 || fdeLength == 0xFFFFFFFF) return {};
  const uint8_t* fdeEnd = fde + 4 + fdeLength;
  const uint8_t* cieIdField = f.pos();
  const uint8_t* cie = cieIdField - f.fixed<uint32_t>();
  // The CIE: augmentation, alignment factors, pointer encoding, initial instructions.
  Reader c(cie, unbounded);
  const uint32_t cieLength = c.fixed<uint32_t>();
  if (cieLength == 0 || cieLength == 0xFFFFFFFF || c.fixed<uint32_t>() != 0) return {};
  const uint8_t* cieEnd = cie + 4 + cieLength;
  const uint8_t version = c.fixed<uint8_t>();
  const char* aug = reinterpret_cast<const char*>(c.pos());
  const size_t augLen = strnlen(aug, 16);
  c.skip(augLen + 1);
  const uint64_t codeAlign = c.uleb();
  const int64_t dataAlign = c.sleb();
  if (version == 1) c.fixed<uint8_t>();
  else c.uleb();
  uint8_t fdeEnc = 0;
  const bool hasAugData = augLen > 0 && aug[0] == 'z';
  if (hasAugData) {
    const uint64_t n = c.uleb();
    const uint8_t* augEnd = c.pos() + n;
    for (size_t k = 1; k < augLen && c.ok(); ++k) {
      if (aug[k] == 'R') fdeEnc = c.fixed<uint8_t>();
      else if (aug[k] == 'P') c.pointer(c.fixed<uint8_t>());
      else if (aug[k] == 'L') c.fixed<uint8_t>();
      else if (aug[k] != 'S') return {};
    }
    c = Reader(augEnd, cieEnd);
  } else if (augLen > 0) {
    return {};
  }
  const uintptr_t pcBegin = f.pointer(fdeEnc);
  f.pointer(fdeEnc & 0x0F);  // pc range
  if (hasAugData) f.skip(f.uleb());
  if (!c.ok() || !f.ok() || pcBegin != fn) return {};

  std::vector<CfaRow> rows{{fn, 7, 8}};
  std::vector<CfaRow> saved;
  auto run = [&](Reader r, const uint8_t* end) {
    while (r.ok() && r.pos() < end) {
      const uint8_t op = r.fixed<uint8_t>();
      CfaRow cur = rows.back();
      auto advance = [&](uint64_t delta) {
        cur.pc += delta * codeAlign;
        if (cur.pc == rows.back().pc) rows.back() = cur;
        else rows.push_back(cur);
      };
      auto set = [&](int reg, int64_t off) {
        rows.back().reg = reg;
        rows.back().offset = off;
      };
      switch (op >> 6) {
        case 1: advance(op & 0x3F); continue;
        case 2: r.uleb(); continue;
        case 3: continue;
        default: break;
      }
      switch (op) {
        case 0x00: break;
        case 0x02: advance(r.fixed<uint8_t>()); break;
        case 0x03: advance(r.fixed<uint16_t>()); break;
        case 0x04: advance(r.fixed<uint32_t>()); break;
        case 0x05: case 0x09: r.uleb(); r.uleb(); break;
        case 0x06: case 0x07: case 0x08: case 0x2E: r.uleb(); break;
        case 0x0A: saved.push_back(rows.back()); break;
        case 0x0B:
          if (saved.empty()) return r.fail();
          set(saved.back().reg, saved.back().offset);
          saved.pop_back();
          break;
        case 0x0C: { const int reg = int(r.uleb()); set(reg, int64_t(r.uleb())); break; }
        case 0x0D: set(int(r.uleb()), rows.back().offset); break;
        case 0x0E: set(rows.back().reg, int64_t(r.uleb())); break;
        case 0x0F: r.skip(r.uleb()); set(-1, 0); break;
        case 0x10: case 0x16: r.uleb(); r.skip(r.uleb()); break;
        case 0x11: case 0x14: case 0x15: case 0x2F: r.uleb(); r.sleb(); break;
        case 0x12: { const int reg = int(r.uleb()); set(reg, r.sleb() * dataAlign); break; }
        case 0x13: set(rows.back().reg, r.sleb() * dataAlign); break;
        default: return r.fail();
      }
    }
    if (!r.ok()) rows.clear();
  };
  run(c, cieEnd);
  if (rows.empty()) return {};
  rows.back().pc = fn;
  run(f, fdeEnd);
  return rows;
}

bool fromEnvironment(ModelApi* api) {
  const char* v = std::getenv("QNN_OPENQNN_MODEL_API");
  if (!v || !*v) return false;
  unsigned major = 0, minor = 0;
  char tail = 0;
  if (std::sscanf(v, "%u.%u%c", &major, &minor, &tail) != 2 || major != 2)
    throw ToolError(std::string("QNN_OPENQNN_MODEL_API='") + v + "' is not of the form 2.<minor>");
  const size_t members = adapters::interfaceMembersForMinor(minor);
  if (members == 0 || minor == 8 || minor > 39)
    throw ToolError(std::string("QNN_OPENQNN_MODEL_API=") + v +
                    ": no model library interface table is known for that version (known: 2.7, 2.9-2.32, 2.39)");
  api->minor = minor;
  api->members = members;
  api->how = std::string("set by QNN_OPENQNN_MODEL_API=") + v;
  return true;
}

}  // namespace

size_t tensorArgumentArea(const void* composeFn) {
#if defined(__x86_64__)
  // Stack areas reserved for one call's by-value arguments show as the CFA offset growing by them
  // (clang and gcc note every such adjustment when the frame is %rsp-based).
  const std::vector<CfaRow> rows = cfaRows(reinterpret_cast<uintptr_t>(composeFn));
  bool area128 = false, area144 = false;
  for (size_t i = 1; i < rows.size(); ++i) {
    if (rows[i].reg != 7 || rows[i - 1].reg != 7) continue;
    const int64_t growth = rows[i].offset - rows[i - 1].offset;
    area128 = area128 || growth == 128;
    area144 = area144 || growth == 144;
  }
  if (area128 != area144) return area128 ? 120 : 144;
#else
  (void)composeFn;
#endif
  return 0;
}

size_t measuredTableBytes(const void* composeFn, size_t bytesBeforeDebug) {
#if defined(__x86_64__)
  Dl_info info{};
  ElfW(Sym)* sym = nullptr;
  if (!composeFn || !dladdr1(composeFn, &info, reinterpret_cast<void**>(&sym), RTLD_DL_SYMENT) || !sym ||
      info.dli_saddr != composeFn || sym->st_size < 16)
    return 0;
  const auto* code = static_cast<const uint8_t*>(composeFn);
  const size_t size = std::min<size_t>(sym->st_size, 1 << 20);
  const std::vector<CfaRow> rows = cfaRows(reinterpret_cast<uintptr_t>(composeFn));
  if (rows.empty()) return 0;
  // A wrapper without a frame of its own forwards the table untouched: nothing refers to it.
  const bool frameless = rows.size() == 1;
  bool tableSeen = false;
  std::set<int64_t> narrowReads;
  size_t row = 0;
  for (size_t j = 1; j + 6 <= size; ++j) {
    while (row + 1 < rows.size() && rows[row + 1].pc <= reinterpret_cast<uintptr_t>(code + j)) ++row;
    const CfaRow& cfa = rows[row];
    const uint8_t modrm = code[j];
    int64_t disp = 0;
    int base = -1;
    if ((modrm & 0xC7) == 0x84 && code[j + 1] == 0x24)  // [rsp + disp32]
      base = 7, disp = le32(code + j + 2);
    else if ((modrm & 0xC7) == 0x44 && code[j + 1] == 0x24)  // [rsp + disp8]
      base = 7, disp = static_cast<int8_t>(code[j + 2]);
    else if ((modrm & 0xC7) == 0x85)  // [rbp + disp32]
      base = 6, disp = le32(code + j + 1);
    else if ((modrm & 0xC7) == 0x45)  // [rbp + disp8]
      base = 6, disp = static_cast<int8_t>(code[j + 1]);
    if (base < 0 || base != cfa.reg) continue;
    const int64_t offset = disp - cfa.offset;  // from the CFA, where the table starts
    if (offset == 0) tableSeen = true;
    if (offset > 0 && offset % 8 == 0 && offset <= 8 * 128 && narrowLoadBefore(code, j)) narrowReads.insert(offset);
  }
  if (!tableSeen && !frameless) return 0;
  // The bool `debug` is the first stack argument after the table; nothing in the table is narrow.
  for (int64_t offset : narrowReads) {
    const int64_t table = offset - static_cast<int64_t>(bytesBeforeDebug);
    bool ambiguous = false;
    if (table > 0 && adapters::minorForInterfaceMembers(static_cast<size_t>(table / 8), &ambiguous) != 0)
      return static_cast<size_t>(table);
  }
#else
  (void)composeFn, (void)bytesBeforeDebug;
#endif
  return 0;
}

ModelApi modelApiOf(const void* composeFn, bool fromDlc) {
  ModelApi api;
  if (fromEnvironment(&api)) return api;
  const size_t bytes = measuredTableBytes(composeFn, fromDlc ? sizeof(uint32_t*) : 0);
  bool ambiguous = false;
  // A size shared by several versions names the oldest of them (same layout); our own, ours.
  const uint32_t minor = bytes == sizeof(QNN_INTERFACE_VER_TYPE)
                             ? QNN_API_VERSION_MINOR
                             : bytes ? adapters::minorForInterfaceMembers(bytes / 8, &ambiguous) : 0;
  if (minor == 0) {
    api.minor = QNN_API_VERSION_MINOR;
    api.members = adapters::interfaceMembersForMinor(api.minor);
    api.how = "not measurable in its code; taken as this tool's own API (set QNN_OPENQNN_MODEL_API=2.<minor> "
              "for a library of another version)";
    api.certain = false;
    return api;
  }
  api.members = bytes / 8;
  api.how = "its compose function reads `debug` where a " + std::to_string(bytes) + "-byte table puts it";
  if (ambiguous) {
    // 55 members: API 2.13 (SDK 2.19, 120-byte tensors) or 2.14 (SDK 2.20, 144-byte tensors).
    // The vendor's QnnModel::addTensor takes a tensor by value: its stack area tells them apart.
    const size_t tensor = tensorArgumentArea(composeFn);
    api.minor = tensor == 120 ? 13 : 14;
    api.certain = tensor != 0;
    api.how += tensor ? " and passes " + std::to_string(tensor) + "-byte tensors by value"
                      : " (55 members: API 2.13 or 2.14; 2.14 assumed, set QNN_OPENQNN_MODEL_API=2.13 for an SDK "
                        "2.19 library)";
  } else {
    api.minor = minor;
  }
  return api;
}

}  // namespace qnn::tools
