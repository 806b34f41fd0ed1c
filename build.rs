// The migrations are embedded at compile time: a new or changed migration must rebuild.
fn main() {
    println!("cargo:rerun-if-changed=migrations");
}
