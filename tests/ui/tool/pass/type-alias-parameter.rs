use mcp_runtime::prelude::*;

/// A city and its country.
#[derive(Deserialize, JsonSchema)]
struct Place {
    city: String,
    country: String,
}

type Destination = Place;
type Tags = Vec<String>;

/// Plans a trip.
#[mcp_tool]
fn plan_trip(destination: Destination, tags: Tags) -> String {
    format!(
        "{}, {} ({})",
        destination.city,
        destination.country,
        tags.join(", ")
    )
}

fn main() {
    mcp_runtime::Server::builder(mcp_runtime::server_info!())
        .tool::<plan_trip>()
        .build()
        .unwrap();
}
