package version

import (
	"runtime/debug"
	"testing"
)

func TestFallback(t *testing.T) {
	set := func(kv ...string) *debug.BuildInfo {
		bi := &debug.BuildInfo{}
		for i := 0; i < len(kv); i += 2 {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: kv[i], Value: kv[i+1]})
		}
		return bi
	}
	cases := []struct {
		bi   *debug.BuildInfo
		ok   bool
		want string
	}{
		{nil, false, "dev"},
		{set(), true, "dev"},
		{set("vcs.revision", "4a31838aa0c1d2", "vcs.modified", "false"), true, "dev+4a31838"},
		{set("vcs.revision", "4a31838aa0c1d2", "vcs.modified", "true"), true, "dev+4a31838-dirty"},
		{set("vcs.revision", "abc"), true, "dev+abc"},
	}
	for _, c := range cases {
		if got := fallback(c.bi, c.ok); got != c.want {
			t.Errorf("fallback(%v) = %q, want %q", c.bi, got, c.want)
		}
	}
}

func TestStringPrefersLinkTimeVersion(t *testing.T) {
	old := Version
	defer func() { Version = old }()
	Version = "v1.2.3-4-gabcdef0"
	if got := String(); got != Version {
		t.Fatalf("String() = %q, want the -X value %q", got, Version)
	}
	Version = ""
	if got := String(); got == "" {
		t.Fatal("String() is empty without a link-time version; want the dev fallback")
	}
}
