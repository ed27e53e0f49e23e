//! Floating-point values in JSON: finite ones as numbers, and `"inf"`,
//! `"-inf"`, `"NaN"` as strings, since JSON numbers cannot hold them (serde
//! would write `null`, which cannot be read back as a float).

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A float as JSON holds it.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum Json {
    Number(f64),
    Text(String),
}

fn to_json(f: f64) -> Json {
    match f {
        f if f.is_finite() => Json::Number(f),
        f if f.is_nan() => Json::Text("NaN".into()),
        f if f > 0.0 => Json::Text("inf".into()),
        _ => Json::Text("-inf".into()),
    }
}

fn from_json<E: serde::de::Error>(json: Json) -> Result<f64, E> {
    match json {
        Json::Number(f) => Ok(f),
        Json::Text(t) => match t.as_str() {
            "NaN" => Ok(f64::NAN),
            "inf" => Ok(f64::INFINITY),
            "-inf" => Ok(f64::NEG_INFINITY),
            _ => Err(E::custom(format!("{t:?} is not a number (nor inf, -inf, NaN)"))),
        },
    }
}

/// `#[serde(with = "float_json::one")]` for an `f64`.
pub mod one {
    use super::*;

    pub fn serialize<S: Serializer>(f: &f64, s: S) -> Result<S::Ok, S::Error> {
        to_json(*f).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
        from_json(Json::deserialize(d)?)
    }
}

/// `#[serde(with = "float_json::seq")]` for a `Vec<f64>`.
pub mod seq {
    use super::*;

    pub fn serialize<S: Serializer>(fs: &[f64], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(fs.iter().map(|f| to_json(*f)))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<f64>, D::Error> {
        Vec::<Json>::deserialize(d)?.into_iter().map(from_json).collect()
    }
}

#[cfg(test)]
mod tests {
    use crate::model::Value;

    #[test]
    fn non_finite_values_survive_json() {
        for value in [
            Value::Float(f64::INFINITY),
            Value::Float(f64::NEG_INFINITY),
            Value::Float(f64::NAN),
            Value::Float(-2.5),
            Value::FloatSeq(vec![1.0, f64::NEG_INFINITY, f64::NAN]),
        ] {
            let json = serde_json::to_string(&value).unwrap();
            assert!(!json.contains("null"), "{json}");
            let back: Value = serde_json::from_str(&json).unwrap();
            assert!(back.same(&value), "{json} read as {back:?}");
        }
        assert!(serde_json::from_str::<Value>(r#"{"Float":"huge"}"#).is_err());
    }
}
