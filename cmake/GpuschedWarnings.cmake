# Warnings and sanitizers shared by every gpusched target.
function(gpusched_set_warnings target)
  target_compile_options(${target} PRIVATE -Wall -Wextra -Wpedantic -Wshadow -Wconversion
                                           -Wno-sign-conversion)
  if(GPUSCHED_WERROR)
    target_compile_options(${target} PRIVATE -Werror)
  endif()
endfunction()

if(GPUSCHED_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_link_options(-fsanitize=address,undefined)
endif()
