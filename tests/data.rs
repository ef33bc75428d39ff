//! `tianwang data list | fetch | import | verify` on a fresh install: a home folder of its own
//! and nothing above it, the sets imported from a copy (the shared data folder, given
//! absolutely) or fetched from a mirror on loopback — resumed, refused when a file is not the
//! published one, stopped with the set and file named on a 404, a stall or a full disk.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use common::mirror::Mirror;
use common::{ok_json, scratch, shared_data};
use serde_json::Value;

/// The binary as a new user runs it: in `home`, with HOME there and no data or workspace
/// folder set, so everything resolves under `home`.
fn fresh(home: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_tianwang"))
        .current_dir(home)
        .env("HOME", home)
        .env_remove("TIANWANG_DATA")
        .env_remove("TIANWANG_DATA_DIR")
        .env_remove("XDG_DATA_HOME")
        .env_remove("XDG_CACHE_HOME")
        .env("NO_COLOR", "1")
        .args(args)
        .output()
        .expect("run tianwang")
}

/// The binary with `--data data`.
fn with_data(data: &Path, args: &[&str]) -> Output {
    let mut all = vec!["--data", data.to_str().unwrap()];
    all.extend_from_slice(args);
    common::run(&all)
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

fn exit_2_naming(o: &Output, words: &[&str]) -> String {
    let e = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{e}");
    for w in words {
        assert!(e.contains(w), "`{w}` not in: {e}");
    }
    e
}

fn sets(v: &Value) -> &Vec<Value> {
    v["sets"].as_array().expect("sets")
}

#[test]
fn a_fresh_home_lists_every_set_and_imports_them_all() {
    let Some(copy) = shared_data("") else { return };
    let copy = copy.canonicalize().unwrap();
    let home = scratch("home");
    let v = ok_json(&fresh(&home, &["data", "list", "--json"]));
    let dir = PathBuf::from(v["data_dir"].as_str().unwrap());
    assert!(dir.starts_with(&home), "{}", dir.display());
    let all = sets(&v);
    assert!(all.len() >= 7, "{v}");
    for s in all {
        assert_eq!(s["installed"], false, "{s}");
        for k in ["name", "purpose", "licence", "upstream", "bytes", "files"] {
            assert!(!s[k].is_null(), "{k} in {s}");
        }
        for f in s["files"].as_array().unwrap() {
            assert_eq!(f["sha256"].as_str().unwrap().len(), 64);
            assert!(f["bytes"].as_u64().is_some());
        }
    }

    let o = fresh(&home, &["data", "import", copy.to_str().unwrap(), "--json"]);
    let r = ok_json(&o);
    // Every set the copy holds is imported; a set it lacks (the shared folder has no aeb) is
    // named as not in the copy and stays not installed, without failing the import.
    let installed = r["installed"].as_array().unwrap();
    let absent = r["not_in_copy"].as_array().unwrap();
    assert_eq!(installed.len() + absent.len(), all.len(), "{r}");
    for s in absent {
        let name = s.as_str().unwrap();
        let d = copy.join(
            all.iter().find(|x| x["name"] == name).unwrap()["dir"]
                .as_str()
                .unwrap(),
        );
        assert!(
            !d.exists(),
            "{name} is in the copy but was not imported: {r}"
        );
    }
    assert!(installed.len() >= 7, "{r}");
    let v = ok_json(&fresh(&home, &["data", "list", "--json"]));
    for s in sets(&v) {
        let want = installed.contains(&s["name"]);
        assert_eq!(s["installed"], want, "{s}");
    }
    let v = ok_json(&fresh(&home, &["data", "verify", "--json"]));
    assert_eq!(v["changed"].as_array().unwrap().len(), 0, "{v}");
    assert_eq!(v["checked"].as_array().unwrap().len(), installed.len());
    assert_eq!(v["not_installed"].as_array().unwrap().len(), absent.len());

    // A file changed after the install: verify names it and exits 2.
    let f = dir.join("classification/thucnews_titles/class.txt");
    let mut b = std::fs::read(&f).unwrap();
    b[0] ^= 0x20;
    std::fs::write(&f, &b).unwrap();
    let o = fresh(&home, &["data", "verify"]);
    exit_2_naming(&o, &["thucnews_titles", "class.txt", "SHA-256"]);
    assert!(String::from_utf8_lossy(&o.stdout).contains("CHANGED thucnews_titles/class.txt"));
}

#[test]
fn fetch_from_a_mirror_installs_verified_sets_and_resumes() {
    let Some(copy) = shared_data("") else { return };
    let mirror = Mirror::of_sets(&copy, &["hollins", "sogoucs_smarty"]);
    let data = scratch("fetch");
    // An earlier download stopped half way through hollins.dat.
    let whole = std::fs::read(copy.join("graph/hollins/hollins.dat")).unwrap();
    let part = data.join(".tianwang/staging/hollins/hollins.dat.part");
    std::fs::create_dir_all(part.parent().unwrap()).unwrap();
    std::fs::write(&part, &whole[..whole.len() / 2]).unwrap();

    let o = with_data(
        &data,
        &[
            "data",
            "fetch",
            "hollins",
            "sogoucs_smarty",
            "--mirror",
            &mirror.base,
            "--json",
        ],
    );
    let r = ok_json(&o);
    assert_eq!(
        r["installed"],
        serde_json::json!(["hollins", "sogoucs_smarty"])
    );
    assert_eq!(r["resumed"], 1, "{r}");
    assert!(mirror.ranged.load(std::sync::atomic::Ordering::SeqCst) >= 1);
    let sogou: u64 = ["gb18030", "utf8"]
        .iter()
        .map(|e| {
            let p = format!("classification/sogoucs_smarty/news_sohusite_xml.smarty.{e}.dat");
            std::fs::metadata(copy.join(p)).unwrap().len()
        })
        .sum();
    let rest = (whole.len() - whole.len() / 2) as u64;
    assert_eq!(
        r["bytes_downloaded"].as_u64().unwrap(),
        rest + sogou,
        "only the rest of the resumed file: {r}"
    );
    // The licence and terms were said before the download.
    assert!(stderr(&o).contains("licence:"), "{}", stderr(&o));
    assert_eq!(
        std::fs::read(data.join("graph/hollins/hollins.dat")).unwrap(),
        whole
    );
    assert!(!part.exists(), "nothing left in staging");
    let v = ok_json(&with_data(&data, &["data", "verify", "hollins", "--json"]));
    assert_eq!(v["changed"].as_array().unwrap().len(), 0);
    // Fetching again downloads nothing.
    let r = ok_json(&with_data(
        &data,
        &[
            "data",
            "fetch",
            "hollins",
            "--mirror",
            &mirror.base,
            "--json",
        ],
    ));
    assert_eq!(r["already"], serde_json::json!(["hollins"]));
}

#[test]
fn a_corrupted_file_on_the_mirror_is_refused_and_nothing_is_installed() {
    let Some(copy) = shared_data("") else { return };
    let mirror = Mirror::of_sets(&copy, &["sogoucs_smarty"]);
    let mut bad =
        std::fs::read(copy.join("classification/sogoucs_smarty/news_sohusite_xml.smarty.utf8.dat"))
            .unwrap();
    bad[1000] ^= 1;
    mirror.put("sogoucs_smarty", "news_sohusite_xml.smarty.utf8.dat", bad);
    let data = scratch("corrupt");
    let o = with_data(
        &data,
        &["data", "fetch", "sogoucs_smarty", "--mirror", &mirror.base],
    );
    exit_2_naming(
        &o,
        &[
            "sogoucs_smarty",
            "news_sohusite_xml.smarty.utf8.dat",
            "SHA-256",
            "manifest",
        ],
    );
    let v = ok_json(&with_data(&data, &["data", "list", "--json"]));
    let s = sets(&v)
        .iter()
        .find(|s| s["name"] == "sogoucs_smarty")
        .unwrap();
    assert_eq!(s["installed"], false);
    assert!(
        !data.join("classification/sogoucs_smarty").exists(),
        "nothing half-installed"
    );
}

#[test]
fn a_missing_file_a_stall_and_a_full_disk_name_the_set_and_file() {
    let Some(copy) = shared_data("") else { return };
    let mirror = Mirror::of_sets(&copy, &["hollins"]);

    mirror.remove("hollins", "hollins.dat");
    let data = scratch("404");
    let o = with_data(
        &data,
        &["data", "fetch", "hollins", "--mirror", &mirror.base],
    );
    exit_2_naming(&o, &["hollins", "hollins.dat", "HTTP 404"]);
    assert!(!data.join("graph/hollins/hollins.dat").exists());

    mirror.put(
        "hollins",
        "hollins.dat",
        std::fs::read(copy.join("graph/hollins/hollins.dat")).unwrap(),
    );
    mirror.stall(true);
    let t = std::time::Instant::now();
    let o = with_data(
        &data,
        &[
            "data",
            "fetch",
            "hollins",
            "--mirror",
            &mirror.base,
            "--timeout",
            "1",
        ],
    );
    exit_2_naming(&o, &["hollins", "hollins.dat", "no data from"]);
    assert!(t.elapsed() < std::time::Duration::from_secs(20));
    mirror.stall(false);

    // The part being written is /dev/full: the disk is full.
    #[cfg(target_os = "linux")]
    {
        let data = scratch("full");
        let part = data.join(".tianwang/staging/hollins/hollins.dat.part");
        std::fs::create_dir_all(part.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink("/dev/full", &part).unwrap();
        let o = with_data(
            &data,
            &["data", "fetch", "hollins", "--mirror", &mirror.base],
        );
        exit_2_naming(&o, &["hollins", "hollins.dat", "disk is full"]);
        assert!(!data.join("graph/hollins/hollins.dat").exists());
    }
}

#[test]
fn unknown_and_import_only_sets_are_refused_by_name() {
    let data = scratch("names");
    let o = with_data(&data, &["data", "fetch", "nonsense"]);
    exit_2_naming(&o, &["nonsense", "thucnews_titles"]);
    let o = with_data(&data, &["data", "fetch", "references"]);
    exit_2_naming(&o, &["references", "tianwang data import"]);
    let o = with_data(&data, &["data", "import", "/no/such/folder"]);
    exit_2_naming(&o, &["/no/such/folder"]);
}
