#pragma once
// The tokens of CEL (cel-go v0.26.0 parser/gen/CEL.g4's lexer rules) and the decoding of string
// literals (parser/unescape.go).

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "dra/cel_source.hpp"

namespace gpusched::dra::cel::detail {

enum class Tok : std::uint8_t {
  End,
  Ident,
  EscapedIdent,  ///< `a.b-c`: ESC_IDENTIFIER
  Int,           ///< NUM_INT: decimal or 0x hex
  Uint,          ///< NUM_UINT
  Double,        ///< NUM_FLOAT
  String,        ///< STRING, decoded into Token::text
  Bytes,         ///< BYTES
  True,
  False,
  Null,
  In,
  LParen,
  RParen,
  LBracket,
  RBracket,
  LBrace,
  RBrace,
  Dot,
  Comma,
  Colon,
  Question,
  Plus,
  Minus,
  Star,
  Slash,
  Percent,
  Not,
  Eq,
  Ne,
  Lt,
  Le,
  Gt,
  Ge,
  And,
  Or,
};

struct Token {
  Tok kind = Tok::End;
  std::uint32_t offset = 0;  ///< byte offset in the expression
  std::uint32_t length = 0;  ///< bytes of source text
  std::string text;          ///< String: the decoded value; other kinds: the source text
};

struct LexResult {
  std::vector<Token> tokens;  ///< ends with Tok::End
  std::optional<SourceError> error;
};

/// Splits an expression into tokens, skipping white space and `//` comments. A string literal
/// that does not decode reports unescape.go's error at the literal.
[[nodiscard]] LexResult lex(std::string_view source);

/// The source text of a token kind for messages ("'&&'", "end of input").
[[nodiscard]] std::string describe(const Token& token);

}  // namespace gpusched::dra::cel::detail
