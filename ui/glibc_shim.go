//go:build linux

package ui

// cimgui-go's prebuilt cimgui.a was compiled against glibc ≥ 2.38, whose
// headers redirect sscanf to __isoc23_sscanf (C23 semantics for %b and
// friends, which ImGui never uses). Debian 12 ships glibc 2.36, which lacks
// that symbol; defining it here on top of vsscanf lets the archive link.
// Newer glibc provides the symbol itself and this file then defines
// nothing. Linux only: MinGW (the Windows build) and macOS have neither
// glibc nor <features.h>.

/*
#include <features.h>
#if defined(__GLIBC__) && !__GLIBC_PREREQ(2, 38)
#include <stdarg.h>
#include <stdio.h>
int __isoc23_sscanf(const char *s, const char *format, ...) {
	va_list ap;
	va_start(ap, format);
	int n = vsscanf(s, format, ap);
	va_end(ap);
	return n;
}
#endif
*/
import "C"
