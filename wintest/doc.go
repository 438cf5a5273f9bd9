// Package wintest tests Orogen's Windows build on Linux, under Wine. It
// holds only tests (wine_test.go); they cross-compile the Windows CLI
// (CGO_ENABLED=0 GOOS=windows) and
//
//   - check that its heightmap is byte-identical to the Linux binary's for
//     the same scene (determinism across operating systems);
//   - run it on Windows-style paths (drive letter Z:, backslashes, spaces,
//     non-ASCII names): a scene file next to its uplift image, an export,
//     and that export read back with --init;
//   - save twice over the same files (atomic saves rename over an existing
//     file: os.Rename is MoveFileEx with MOVEFILE_REPLACE_EXISTING on
//     Windows);
//   - cross-compile the unit tests of app/safefile, app/prefs,
//     app/project, app/scene, app/export and app/osfs and run them under
//     Wine with the temporary folder on Z: in a path with spaces and
//     non-ASCII names (the config folder is %APPDATA%\Orogen there:
//     app/prefs's TestDir; a save over a file held open: app/safefile's
//     TestWriteOverOpenFile);
//   - cross-compile the desktop app with MinGW-w64 and start it through
//     orogen.exe under Wine on the display (Xvfb) with a script that
//     exports, saves, reopens, takes a screenshot and quits.
//
// Wine 8 (Debian 12) lacks bcryptprimitives.dll, which every Go ≥ 1.22
// Windows program needs; scripts/wine/prefix.sh makes the test prefix and
// builds a stand-in (scripts/wine/bcryptprimitives.c) into it.
//
// The tests need wine (wine64) and x86_64-w64-mingw32-gcc; without them
// they skip, unless OROGEN_WINE_TEST=1 (set by `make test`) demands them.
// -short skips them too: starting Wine takes seconds.
package wintest
