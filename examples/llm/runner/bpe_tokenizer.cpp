#include "bpe_tokenizer.h"

#include <cctype>
#include <climits>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace llm {
namespace {

enum class CharClass { kLetter, kDigit, kSpace, kOther };

// One UTF-8 character at s[i]: its length (1 for a malformed byte) and code point.
size_t utf8Char(const std::string& s, size_t i, uint32_t* cp) {
  const auto b = static_cast<unsigned char>(s[i]);
  size_t n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
  if (n == 0 || i + n > s.size()) {
    *cp = 0xFFFD;
    return 1;
  }
  uint32_t v = n == 1 ? b : b & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    const auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) {
      *cp = 0xFFFD;
      return 1;
    }
    v = (v << 6) | (c & 0x3F);
  }
  *cp = v;
  return n;
}

// Python's str.isspace(), which is what \s matches in a str pattern.
bool pythonSpace(uint32_t c) {
  return (c >= 0x09 && c <= 0x0D) || (c >= 0x1C && c <= 0x20) || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

CharClass classify(uint32_t c) {
  if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z')) return CharClass::kLetter;
  if (c >= '0' && c <= '9') return CharClass::kDigit;
  if (pythonSpace(c)) return CharClass::kSpace;
  return CharClass::kOther;
}

// A minimal reader of the one array tokenizer.json holds: "merges": [[a, b], ...].
std::vector<std::pair<int32_t, int32_t>> parseMerges(const std::string& text, const std::string& path) {
  auto fail = [&path](const std::string& why) { throw std::runtime_error(path + ": " + why); };
  size_t p = text.find("\"merges\"");
  if (p == std::string::npos) fail("no \"merges\" list (not a tokenizer.json of train_llm.py)");
  p = text.find('[', p);
  if (p == std::string::npos) fail("\"merges\" is not a list");
  ++p;
  std::vector<std::pair<int32_t, int32_t>> merges;
  auto skipSpace = [&]() {
    while (p < text.size() && std::isspace(static_cast<unsigned char>(text[p]))) ++p;
  };
  auto number = [&]() -> int32_t {
    skipSpace();
    size_t start = p;
    while (p < text.size() && std::isdigit(static_cast<unsigned char>(text[p]))) ++p;
    if (p == start || p - start > 9) fail("a merge holds something other than a non-negative id");
    return static_cast<int32_t>(std::stol(text.substr(start, p - start)));
  };
  auto expect = [&](char c) {
    skipSpace();
    if (p >= text.size() || text[p] != c) fail(std::string("malformed \"merges\" (expected '") + c + "')");
    ++p;
  };
  skipSpace();
  if (p < text.size() && text[p] == ']') return merges;
  for (;;) {
    expect('[');
    int32_t a = number();
    expect(',');
    int32_t b = number();
    expect(']');
    const auto next = static_cast<int32_t>(256 + merges.size());
    if (a >= next || b >= next) fail("merge " + std::to_string(merges.size()) + " names an id not yet defined");
    merges.emplace_back(a, b);
    skipSpace();
    if (p < text.size() && text[p] == ']') break;
    expect(',');
  }
  return merges;
}

}  // namespace

BpeTokenizer::BpeTokenizer(std::vector<std::pair<int32_t, int32_t>> merges) {
  for (int i = 0; i < 256; ++i) pieces_.emplace_back(1, static_cast<char>(i));
  for (size_t r = 0; r < merges.size(); ++r) {
    rank_.emplace(merges[r], static_cast<int32_t>(r));
    pieces_.push_back(pieces_.at(merges[r].first) + pieces_.at(merges[r].second));
  }
}

BpeTokenizer BpeTokenizer::load(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read tokenizer " + path);
  std::stringstream ss;
  ss << in.rdbuf();
  return BpeTokenizer(parseMerges(ss.str(), path));
}

std::vector<std::string> BpeTokenizer::splitWords(const std::string& text) {
  // Character by character (code points): class and byte span.
  struct Ch {
    CharClass cls;
    size_t begin, end;
  };
  std::vector<Ch> chars;
  for (size_t i = 0; i < text.size();) {
    uint32_t cp = 0;
    size_t n = utf8Char(text, i, &cp);
    chars.push_back({classify(cp), i, i + n});
    i += n;
  }
  std::vector<std::string> words;
  size_t i = 0;
  auto runOf = [&](size_t from, CharClass cls) {
    size_t j = from;
    while (j < chars.size() && chars[j].cls == cls) ++j;
    return j;
  };
  while (i < chars.size()) {
    const bool space = text[chars[i].begin] == ' ';
    size_t start = i, end = i;
    // The first three alternatives: an optional ' ' then a run of letters / digits / others.
    const size_t body = space && i + 1 < chars.size() && chars[i + 1].cls != CharClass::kSpace ? i + 1 : i;
    if (chars[body].cls != CharClass::kSpace) {
      end = runOf(body, chars[body].cls);
    } else {
      end = runOf(i, CharClass::kSpace);  // \s+
    }
    words.push_back(text.substr(chars[start].begin, chars[end - 1].end - chars[start].begin));
    i = end;
  }
  return words;
}

std::vector<int32_t> BpeTokenizer::encodeWord(const std::string& word) const {
  std::vector<int32_t> seq;
  for (unsigned char c : word) seq.push_back(c);
  while (seq.size() > 1) {
    int32_t best = INT32_MAX;
    size_t at = 0;
    for (size_t i = 0; i + 1 < seq.size(); ++i) {
      auto it = rank_.find({seq[i], seq[i + 1]});
      if (it != rank_.end() && it->second < best) {
        best = it->second;
        at = i;
      }
    }
    if (best == INT32_MAX) break;
    seq[at] = 256 + best;
    seq.erase(seq.begin() + static_cast<std::ptrdiff_t>(at) + 1);
  }
  return seq;
}

std::vector<int32_t> BpeTokenizer::encode(const std::string& text) const {
  std::vector<int32_t> ids;
  for (const std::string& w : splitWords(text)) {
    std::vector<int32_t> part = encodeWord(w);
    ids.insert(ids.end(), part.begin(), part.end());
  }
  return ids;
}

const std::string& BpeTokenizer::piece(int32_t id) const {
  static const std::string empty;
  return id >= 0 && id < vocabSize() ? pieces_[static_cast<size_t>(id)] : empty;
}

std::string BpeTokenizer::decode(const std::vector<int32_t>& ids) const {
  std::string out;
  for (int32_t id : ids) out += piece(id);
  return out;
}

}  // namespace llm
