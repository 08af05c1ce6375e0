// The byte-level BPE of examples/llm/train_llm.py in C++: ids 0..255 are the bytes, id 256 + r
// is merge r (a pair of ids). Text is pre-split into words as train_llm.py's WORD pattern does
// (` ?[A-Za-z]+| ?[0-9]+| ?[^\sA-Za-z0-9]+|\s+`, Python's \s on code points), and each word is
// merged by repeatedly joining the leftmost occurrence of its lowest-ranked pair.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace llm {

class BpeTokenizer {
 public:
  // Reads tokenizer.json ({"merges": [[a, b], ...], ...}); throws std::runtime_error naming the
  // file and the problem.
  static BpeTokenizer load(const std::string& path);
  explicit BpeTokenizer(std::vector<std::pair<int32_t, int32_t>> merges);

  int32_t vocabSize() const { return static_cast<int32_t>(pieces_.size()); }
  std::vector<int32_t> encode(const std::string& text) const;
  // The bytes of the ids (not necessarily whole UTF-8 characters); ids outside the vocabulary
  // give nothing.
  std::string decode(const std::vector<int32_t>& ids) const;
  const std::string& piece(int32_t id) const;

  // The pre-tokenizer alone (exposed for tests).
  static std::vector<std::string> splitWords(const std::string& text);

 private:
  std::vector<int32_t> encodeWord(const std::string& word) const;

  std::map<std::pair<int32_t, int32_t>, int32_t> rank_;
  std::vector<std::string> pieces_;
};

}  // namespace llm
