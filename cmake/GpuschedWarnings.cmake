# Warnings and sanitizers shared by every gpusched target.
function(gpusched_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion)
  # GCC 12 false positives at -O2: "literal" + std::string&& as an overlapping memcpy (GCC bug
  # 105329), and std::map members of aggregates as maybe-uninitialized (GCC bug 107138).
  if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU" AND CMAKE_CXX_COMPILER_VERSION VERSION_LESS 13)
    target_compile_options(${target} PRIVATE -Wno-restrict -Wno-maybe-uninitialized)
  endif()
  if(GPUSCHED_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

if(GPUSCHED_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
