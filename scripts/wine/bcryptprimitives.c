/*
 * bcryptprimitives.dll for Wine 8 (Debian 12), which lacks it.
 *
 * Go >= 1.22 programs on Windows get their random bytes from ProcessPrng
 * in bcryptprimitives.dll (there since Windows 10) and die at start-up
 * without it ("fatal error: bcryptprimitives.dll not found"). Wine adds
 * the DLL in 9.x; Debian 12 ships 8.0. scripts/wine/prefix.sh builds this
 * one with MinGW-w64 and puts it in the test prefix's system32, only for
 * the tests under Wine: Orogen's release does not ship it, real Windows
 * has the real one.
 *
 * ProcessPrng fills data with n random bytes and always returns TRUE
 * (Microsoft documents that it cannot fail); RtlGenRandom
 * (advapi32!SystemFunction036) is Wine's system random source.
 */
#include <windows.h>
#define SystemFunction036 NTAPI SystemFunction036
#include <ntsecapi.h>
#undef SystemFunction036

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T n)
{
	while (n > 0) {
		ULONG k = n > 0x10000000 ? 0x10000000 : (ULONG)n;
		if (!RtlGenRandom(data, k))
			return FALSE;
		data += k;
		n -= k;
	}
	return TRUE;
}
