//! The data manager on real sets (`../shared/data` as the copy to import from): import
//! verifies and installs, a cut install is not an installed set, verify names a changed file,
//! a file that is not the published one is refused with its set and name.

use std::path::{Path, PathBuf};

use super::*;
use crate::engine::testdata::shared_data;

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("tianwang-data-unit-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn set(name: &str) -> &'static DataSet {
    manifest::get().set(name).unwrap()
}

#[test]
fn import_installs_verified_sets_and_verify_names_a_changed_file() {
    let Some(copy) = shared_data("") else { return };
    let dir = DataDir::new(scratch("import"));
    let sets = [set("hollins"), set("sogoucs_smarty")];
    assert!(sets.iter().all(|s| !dir.status(s).installed));
    assert!(matches!(
        dir.require("hollins"),
        Err(EngineError::MissingData { set }) if set == "hollins"
    ));
    let r = import(&dir, &copy, &sets, false, &()).unwrap();
    assert_eq!(r.installed, ["hollins", "sogoucs_smarty"]);
    assert_eq!(r.files, 3);
    assert!(dir.status(sets[0]).installed);
    assert_eq!(
        dir.require("hollins").unwrap(),
        dir.root().join("graph/hollins")
    );
    assert!(dir.state_dir().join("hollins.json").is_file(), "provenance");

    let v = dir.verify(&sets, &()).unwrap();
    assert!(v.changed.is_empty(), "{:?}", v.changed);
    assert_eq!(v.files, 3);

    // One byte changed (same size: the cheap status still says installed; verify does not).
    let f = dir.root().join("graph/hollins/hollins.dat");
    let mut bytes = std::fs::read(&f).unwrap();
    bytes[5] ^= 1;
    std::fs::write(&f, &bytes).unwrap();
    let v = dir.verify(&sets, &()).unwrap();
    assert_eq!(v.changed.len(), 1);
    assert_eq!(v.changed[0].set, "hollins");
    assert_eq!(v.changed[0].file, "hollins.dat");
    let e = v.first_error().unwrap();
    assert!(e.is_user_error());
    let msg = e.to_string();
    assert!(
        msg.contains("hollins") && msg.contains("hollins.dat"),
        "{msg}"
    );
}

#[test]
fn a_copy_with_a_wrong_file_installs_nothing_of_that_set() {
    let Some(copy) = shared_data("graph/hollins/hollins.dat") else {
        return;
    };
    let bad = scratch("badcopy");
    std::fs::create_dir_all(bad.join("graph/hollins")).unwrap();
    let mut bytes = std::fs::read(&copy).unwrap();
    bytes[100] = b'#';
    std::fs::write(bad.join("graph/hollins/hollins.dat"), &bytes).unwrap();
    let dir = DataDir::new(scratch("badtarget"));
    let e = import(&dir, &bad, &[set("hollins")], false, &()).unwrap_err();
    match &e {
        EngineError::DataFile {
            set,
            file,
            problem: DataProblem::Checksum { .. },
        } => assert_eq!((set.as_str(), file.as_str()), ("hollins", "hollins.dat")),
        other => panic!("{other:?}"),
    }
    assert_eq!(e.code().key, "error.data_checksum");
    assert!(!dir.status(set("hollins")).installed);
    assert!(!dir.root().join("graph/hollins/hollins.dat").exists());

    // A set the copy lacks: skipped when importing everything, an error when asked for.
    let r = import(&dir, &bad, &[set("cloudphysics")], true, &()).unwrap();
    assert_eq!(r.not_in_copy, ["cloudphysics"]);
    let e = import(&dir, &bad, &[set("cloudphysics")], false, &()).unwrap_err();
    assert_eq!(e.code().key, "error.data_missing_file");
}

#[test]
fn an_install_cut_short_is_not_an_installed_set() {
    let Some(copy) = shared_data("") else { return };
    let dir = DataDir::new(scratch("cut"));
    import(&dir, &copy, &[set("hollins")], false, &()).unwrap();
    assert!(dir.status(set("hollins")).installed);
    // As if the process died between the marker and its removal.
    std::fs::write(install::marker(&dir, "hollins"), "fetch").unwrap();
    let st = dir.status(set("hollins"));
    assert!(!st.installed && st.interrupted, "{st:?}");
    assert!(dir.require("hollins").is_err());
    // The next import installs it again.
    import(&dir, &copy, &[set("hollins")], false, &()).unwrap();
    assert!(dir.status(set("hollins")).installed);
}

#[test]
fn the_folder_is_resolved_one_way() {
    let flag = Path::new("/flag/data");
    assert_eq!(resolve(Some(flag)).unwrap(), flag);
    // Without the flag: the variable, else the user's data folder (not asserted: the
    // environment of a test run is shared by every thread).
    assert!(resolve(None).is_ok());
    assert_eq!(sha256_hex(b"abc").len(), 64);
    assert_eq!(
        sha256_hex(b"abc"),
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"
    );
}

#[test]
fn importing_the_data_folder_into_itself_is_refused() {
    let d = scratch("self");
    let dir = DataDir::new(&d);
    let e = import(&dir, &d, &[set("hollins")], true, &()).unwrap_err();
    assert!(e.is_user_error(), "{e}");
}
